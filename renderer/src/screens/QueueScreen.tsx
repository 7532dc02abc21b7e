import { QueueList } from '../components/QueueList';
import { QueueToolbar } from '../components/QueueToolbar';
import { useApp } from '../store';
import { VIEW_LABELS } from '../store/views';

export function QueueScreen() {
  const view = useApp((s) => s.view);
  const error = useApp((s) => s.queueError);
  return (
    <section className="screen queue-screen" aria-labelledby="queue-title">
      <h1 id="queue-title" className="visually-hidden">
        Queue: {VIEW_LABELS[view]}
      </h1>
      <QueueToolbar />
      {error && (
        <p className="error-text" role="alert">
          The queue could not be read: {error}
        </p>
      )}
      <QueueList />
    </section>
  );
}

import { useApp } from '../store';
import { Dialog } from './Dialog';

/** The one confirm of the app: destructive or costly actions ask here, with the count. */
export function ConfirmDialog() {
  const request = useApp((s) => s.confirmRequest);
  const answer = useApp((s) => s.answerConfirm);
  return (
    <Dialog
      open={request !== null}
      title={request?.title ?? ''}
      onClose={() => answer(false)}
      className="confirm"
      footer={
        <>
          <button type="button" onClick={() => answer(false)}>
            Keep as is
          </button>
          <button
            type="button"
            className={request?.danger ? 'danger' : 'primary'}
            autoFocus
            onClick={() => answer(true)}
          >
            {request?.confirmLabel}
          </button>
        </>
      }
    >
      <p>{request?.body}</p>
    </Dialog>
  );
}

import { formatCount } from '../format';
import { BannerText } from './BannerText';
import { useApp } from '../store';
import { queueUsed } from '../store/derived';
import { ServeGone } from './ServeGone';

/**
 * Only the banners that apply now: serve not answering (browser), resumed after a crash, offline, queue
 * paused (out of credits, key rejected).
 */
export function Banners() {
  const resumed = useApp((s) => s.totals?.resumedAfterCrash ?? 0);
  const resumedDismissed = useApp((s) => s.resumedDismissed);
  const offline = useApp((s) => s.totals?.offline ?? null);
  const paused = useApp((s) => s.totals?.paused ?? null);
  const dismissResumed = useApp((s) => s.dismissResumed);
  const resumeQueue = useApp((s) => s.resumeQueue);
  const setScreen = useApp((s) => s.setScreen);
  const unchosen = useApp(
    (s) => s.settings?.service.configured === false && queueUsed(s.totals, s.folders) === true,
  );

  return (
    <div className="banners">
      <ServeGone />
      {unchosen && (
        <div className="banner banner-info" role="status">
          <span aria-hidden="true">ℹ</span>
          <p>
            No service is chosen in this app yet: it uses the built-in sandbox. The queue below was made
            earlier, by the command line or another Dubdesk; jobs made on another service finish once you
            choose it.
          </p>
          <button type="button" onClick={() => setScreen('settings')}>
            Choose the service
          </button>
        </div>
      )}
      {resumed > 0 && !resumedDismissed && (
        <div className="banner banner-info" role="status">
          <span aria-hidden="true">↻</span>
          <p>
            Dubdesk stopped unexpectedly last time. {formatCount(resumed)} {resumed === 1 ? 'job' : 'jobs'}{' '}
            resumed where they were; nothing was lost.
          </p>
          <button type="button" onClick={dismissResumed}>
            Dismiss
          </button>
        </div>
      )}
      {offline && (
        <div className="banner banner-warn" role="status">
          <span aria-hidden="true">⚡</span>
          <p>
            Offline — jobs will resume when the service answers. <span className="muted">{offline}</span>
          </p>
        </div>
      )}
      {paused?.reason === 'credits' && (
        <div className="banner banner-error" role="alert">
          <span aria-hidden="true">⚠</span>
          <BannerText
            lead="Out of credits: the queue is paused."
            more={`${paused.message} Add credits to your account, then resume.`}
          />
          <button type="button" onClick={() => void resumeQueue()}>
            Resume queue
          </button>
        </div>
      )}
      {paused?.reason === 'auth' && (
        <div className="banner banner-error" role="alert">
          <span aria-hidden="true">⚠</span>
          <p>The service rejected the API key: the queue is paused. {paused.message}</p>
          <button type="button" onClick={() => setScreen('settings')}>
            Open settings
          </button>
        </div>
      )}
      {paused?.reason === 'user' && (
        <div className="banner banner-info" role="status">
          <span aria-hidden="true">❚❚</span>
          <BannerText
            lead="The queue is paused. Nothing new starts."
            more="Jobs finish the step they are in, then wait. Dubs already started keep being processed and charged by the service; Dubdesk follows them and downloads their results when you resume."
          />
          <button type="button" onClick={() => void resumeQueue()}>
            Resume queue
          </button>
        </div>
      )}
    </div>
  );
}

import { useRef, useState } from 'react';
import type { JobView } from '../../../shared/contract/jobs';
import { languageName } from '../../../shared/languages';
import { mediaFileFor } from '../../../shared/media-route';
import { useBridge } from '../store';
import { previewKind } from '../store/derived';
import { useBridgeReady } from './useBridgeReady';

type Which = 'dub' | 'original';

/** A <track> from another origin loads only over CORS; a same-origin one needs nothing. */
function crossOrigin(src: string): 'anonymous' | undefined {
  try {
    return new URL(src, location.href).origin === location.origin ? undefined : 'anonymous';
  } catch {
    return undefined;
  }
}

/**
 * Plays a finished dub with its subtitles; a switch plays the original at the same moment (position and
 * play state kept), so a dub is checked without leaving the queue.
 */
export function Preview({ job }: { job: JobView }) {
  const bridge = useBridge();
  const kind = previewKind(job);
  const [which, setWhich] = useState<Which>('dub');
  const [failed, setFailed] = useState(false);
  const mediaRef = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  // A media URL carries the media token, which the page no longer waits for before it renders.
  const ready = useBridgeReady();
  if (!kind || !ready) return null;

  // The same files the media route serves: WebVTT, or SubRip turned into WebVTT on the way.
  const hasSubtitles = mediaFileFor(job, 'subtitles', null) !== null;
  const hasPoster = job.outputs.some((o) => o.type === 'poster');
  const hasOriginal =
    job.sourceKind === 'file' || job.outputs.some((o) => o.type === 'original' || o.type === 'original_mp4');

  function switchTo(next: Which) {
    const media = mediaRef.current;
    if (next === which) return;
    if (media) resume.current = { time: media.currentTime, playing: !media.paused };
    setFailed(false);
    setWhich(next);
  }

  function onLoaded() {
    const media = mediaRef.current;
    const at = resume.current;
    resume.current = null;
    if (!media || !at) return;
    media.currentTime = at.time;
    if (at.playing) void media.play().catch(() => undefined);
  }

  const src = bridge.mediaUrl(job.id, which);
  const lang = languageName(job.destLang);
  const common = {
    ref: mediaRef,
    src,
    controls: true,
    preload: 'metadata' as const,
    onLoadedMetadata: onLoaded,
    onError: () => setFailed(true),
    'aria-label': `${which === 'dub' ? `Dub in ${lang}` : 'Original'} of ${job.sourceName}`,
  };
  const track = hasSubtitles ? (
    <track
      kind="subtitles"
      default
      src={bridge.mediaUrl(job.id, 'subtitles')}
      srcLang={job.destLang}
      label={lang}
    />
  ) : null;

  return (
    <div className="preview">
      {kind === 'video' ? (
        <video {...common} className="preview-media" playsInline crossOrigin={crossOrigin(src)}>
          {track}
        </video>
      ) : (
        <div className="preview-audio">
          {hasPoster && <img src={bridge.mediaUrl(job.id, 'poster')} alt={`Poster of ${job.sourceName}`} />}
          <audio {...common} className="preview-media" />
        </div>
      )}
      {failed && (
        <p className="error-text">This file cannot be played here. Open it from its folder instead.</p>
      )}
      {hasOriginal && (
        <div className="segmented" role="group" aria-label="Play">
          <button type="button" aria-pressed={which === 'dub'} onClick={() => switchTo('dub')}>
            Dub ({job.destLang})
          </button>
          <button type="button" aria-pressed={which === 'original'} onClick={() => switchTo('original')}>
            Original
          </button>
        </div>
      )}
    </div>
  );
}

import { useState } from 'react';
import type { UpdateView } from '../../../shared/face';
import { useBridge } from '../store';

/** What a check found, in a sentence with both versions. */
function describe(u: UpdateView): string {
  const current = `You have Dubdesk ${u.current}.`;
  switch (u.status) {
    case 'off':
      return `${current} Updates come to installed copies; this one runs unpackaged.`;
    case 'manual':
      return `${current} ${u.reason ?? ''} Download new versions from the project’s releases page.`;
    case 'up-to-date':
      return `${current} It is the newest version.`;
    case 'downloading':
      return `${current} Version ${u.available ?? ''} is downloading; it is installed when you quit.`;
    case 'ready':
      return `${current} Version ${u.available ?? ''} is installed when you quit Dubdesk.`;
    case 'failed':
      return `${current} The check failed: ${u.error ?? 'unknown error'}.`;
    default:
      return `${current} Checking…`;
  }
}

/** Settings > Updates (desktop only: the web face has no bridge.checkForUpdates, and shows nothing). */
export function UpdateCheck() {
  const bridge = useBridge();
  const [found, setFound] = useState<UpdateView | null>(null);
  const [checking, setChecking] = useState(false);
  if (!bridge.checkForUpdates) return null;
  const check = bridge.checkForUpdates.bind(bridge);
  async function run() {
    setChecking(true);
    try {
      setFound(await check());
    } finally {
      setChecking(false);
    }
  }
  return (
    <fieldset className="update-check">
      <legend>Updates</legend>
      <button type="button" onClick={() => void run()} disabled={checking}>
        {checking ? 'Checking…' : 'Check for updates'}
      </button>
      <p aria-live="polite">{found ? describe(found) : null}</p>
    </fieldset>
  );
}

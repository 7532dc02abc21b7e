import { useEffect, useState } from 'react';
import { bridgeIsReady, bridgeReady } from '../bridge/index';

/** True once media URLs can be made (the web bridge has its media token); the page does not wait for it. */
export function useBridgeReady(): boolean {
  const [ready, setReady] = useState(bridgeIsReady);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void bridgeReady().then(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}

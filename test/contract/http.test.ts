import { serveFor } from '../helpers/serve';
import { contractSuite } from './suite';

// The same suite as in-process, through fastify on loopback and the renderer's own HTTP client; the queue
// is worked on the server's side, as `dubdesk serve` does.
contractSuite('HTTP (dubdesk serve)', async (sb, { apiKey }) => {
  const served = await serveFor(sb, { apiKey });
  return {
    api: served.client,
    runUntilDone: () => served.host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 }),
    close: () => served.close(),
  };
});

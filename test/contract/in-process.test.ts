import { openDubdesk } from '../../electron/engine/index';
import { tempDir } from '../helpers/temp-dir';
import { contractSuite } from './suite';

contractSuite('the in-process engine', async (sb, { apiKey }) => {
  const host = openDubdesk({
    home: tempDir(),
    face: 'cli',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    checkOutputs: true,
  });
  return {
    api: host.api,
    runUntilDone: () => host.run({ untilDone: true, concurrency: 2, pollIntervalMs: 50 }),
    close: () => host.close(),
  };
});

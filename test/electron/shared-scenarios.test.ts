/**
 * The browser face's scenarios (test/e2e), run unchanged against the desktop app under Electron: first run,
 * adding files through the real window, languages, the estimate, start, the queue finishing, the preview
 * playing through `dubdesk-media:`. Run by test/electron/run-suite.mjs where Electron's binary is present.
 */
import { useFace } from '../helpers/face';

useFace('electron');
await import('../e2e/first-run.test');
await import('../e2e/batch.test');

/** The Electron main process's entry (bundled as dist/electron/main.cjs). */
import { join } from 'node:path';
import { app, dialog } from 'electron';
import { registerSchemes, startDubdesk } from './app';
import { logUnhandled, reportStartFailure } from './start-failure';

process.on('unhandledRejection', (reason) => logUnhandled(reason, { app }));
registerSchemes();
startDubdesk({ distDir: __dirname, rendererDir: join(__dirname, '..', 'renderer') }).catch((e: unknown) =>
  reportStartFailure(e, { app, dialog }),
);

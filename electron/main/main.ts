/** The Electron main process's entry (bundled as dist/electron/main.cjs). */
import { join } from 'node:path';
import { registerSchemes, startDubdesk } from './app';

registerSchemes();
void startDubdesk({ distDir: __dirname, rendererDir: join(__dirname, '..', 'renderer') });

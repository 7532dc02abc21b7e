import { createRequire } from 'node:module';

/** The package's version, for `--version` and the engine's app info. */
export const version: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;

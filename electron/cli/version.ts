import pkg from '../../package.json' with { type: 'json' };

/** The package's version, for `--version` and the engine's app info (inlined when the CLI is bundled). */
export const version: string = pkg.version;

/** The request itself is wrong (unknown language, bad flag): nothing was enqueued. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Configuration is missing or contradictory (no base URL for a key, no legacy URL for --api legacy). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

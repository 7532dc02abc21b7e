/**
 * The lowest transfer cap taken, in bytes per second. A capped download stops reading its socket while it
 * waits for its share, and a socket left unread for the idle limit (a minute) is taken for a dead line:
 * with 16 transfers sharing the cap, one 64 KiB read must still get its share within seconds.
 */
export const MIN_RATE_BYTES = 64 * 1024;

/** The highest transfer cap taken: past any line's speed, a larger figure is a typo. */
export const MAX_RATE_BYTES = 10 * 1024 ** 3;

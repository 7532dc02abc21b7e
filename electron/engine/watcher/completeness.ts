/**
 * Whether a file that stopped growing is whole, from its container: a copy that stalls half-way (a network
 * share, a USB drive, a slow export) is quiet for a while but not done. `unknown` for formats whose end
 * cannot be told from their structure: those get a longer quiet period instead.
 */
export type Completeness = { whole: true } | { whole: false; why: string } | { whole: 'unknown' };

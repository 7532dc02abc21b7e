import type * as GotModule from 'got';

type Got = typeof GotModule;

let loaded: Got | null = null;
let loading: Promise<Got> | null = null;

/**
 * got, loaded with the first request: got and what it pulls in (HTTP/2, TLS, the `is` checks' Intl
 * formatters) take a good part of a command's start, and `status`, `pause` or `--help` send nothing.
 */
export function loadGot(): Promise<Got> {
  loading ??= import('got').then((m) => (loaded = m));
  return loading;
}

/** got once a request has loaded it; null before, when no error can be one of got's own. */
export function gotIfLoaded(): Got | null {
  return loaded;
}

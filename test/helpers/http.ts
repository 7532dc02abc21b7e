import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { vi } from 'vitest';

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A thin fetch for contract tests: JSON in, parsed JSON (or text) out, any status. */
export async function call(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; json?: unknown; body?: BodyInit } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function formWithFile(
  path: string,
  fields: Record<string, string>,
  type = 'video/mp4',
): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([await readFile(path)], { type }), basename(path));
  return form;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const notYet = new Error(`timed out waiting for ${what}`);
  return vi.waitFor(
    async () => {
      const v = await probe();
      if (v === undefined) throw notYet;
      return v;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/**
 * Help > Copy Diagnostics, on the engine's side of the utility process (where the database and the key
 * store are): the same checks as `dubdesk doctor`, then the log's tail, every key redacted.
 */
import type { DubdeskApi } from '../../shared/contract/methods';
import { diagnose, diagnosticsReport, systemKeyStore } from '../engine/index';
import { startBuiltInSandbox } from '../sandbox/builtin';
import type { EngineInit } from './engine-protocol';

/** Every key this engine may know, so the report can leave them all out. */
async function knownKeys(init: EngineInit): Promise<string[]> {
  const keys = [init.service?.apiKey ?? ''];
  if (init.keyStore === 'system') {
    try {
      keys.push((await systemKeyStore({ home: init.home, fileFallback: 'ask' })).get() ?? '');
    } catch {
      /* no store: no key from it to hide */
    }
  }
  return keys.filter(Boolean);
}

export async function engineDiagnostics(init: EngineInit, api: DubdeskApi): Promise<string> {
  const checks = await diagnose({
    home: init.home,
    versions: {
      node: process.versions.node,
      ...(process.versions.electron ? { electron: process.versions.electron } : {}),
    },
    keyStore: init.keyStore,
    api: async () => api,
    startSandbox: init.sandbox ? startBuiltInSandbox : null,
  });
  return diagnosticsReport(checks, init.home, await knownKeys(init));
}

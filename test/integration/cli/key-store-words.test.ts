/**
 * A session without a Secret Service (a headless box, SSH, a container) as `login` and `doctor` meet it:
 * the system's own words (D-Bus, X11 autolaunch) go to the log; the user reads one plain sentence, and
 * nothing that did not happen ("you agreed").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CLI, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

const RAW = /DBus|D-Bus|X11|autolaunch|DBUS_SESSION_BUS_ADDRESS|Platform failure/;
const PLAIN = 'no Secret Service (GNOME Keyring or KWallet) answered in this session';

/** A user's environment with no D-Bus session, and none of Dubdesk's variables. */
function noSessionBus(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('DUBDESK_') && k !== 'DBUS_SESSION_BUS_ADDRESS') env[k] = v;
  return { ...env, DUBDESK_HOME: home };
}

const logOf = (home: string) => readFileSync(join(home, 'logs', 'dubdesk.log'), 'utf8');

describe.runIf(process.platform === 'linux')('no Secret Service in this session', () => {
  it('login says so in one plain sentence, the system’s words in the log; doctor tells the truth after', async () => {
    const home = join(tempDir(), 'Dubdesk');
    const env = noSessionBus(home);
    // The key on stdin, as docs/cli.md shows (`echo "$KEY" | dubdesk login`).
    const r = await promisify(execFile)(
      'sh',
      ['-c', `echo sk-plain-words-1234 | '${process.execPath}' '${CLI}' login`],
      { env },
    );
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain(`No system keychain here: ${PLAIN}.`);
    expect(r.stderr).toMatch(/Saved to .*service\.json \(readable by you only\)/);
    expect(logOf(home)).toMatch(RAW);

    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout + doctor.stderr).not.toMatch(RAW);
    // Nobody was asked: `login` kept the key in the file because nothing else would take it.
    expect(doctor.stdout).not.toMatch(/agreed/);
    expect(doctor.stdout).toMatch(/^✓ Key store: the key is kept in .*service\.json, readable by you only$/m);
    expect(doctor.stdout).toContain(`note: ${PLAIN}, so \`dubdesk login\` kept the key in this file.`);
  });

  it('doctor on a fresh home: the same sentence, and the way out', async () => {
    const home = join(tempDir(), 'Dubdesk');
    const r = await runCli(['doctor'], noSessionBus(home));
    expect(r.stdout + r.stderr).not.toMatch(RAW);
    expect(r.stdout).toContain(`note: ${PLAIN}. Before you save a key`);
    expect(logOf(home)).toMatch(RAW);
    expect(r.code).toBe(0);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { argvArbitrary } from '../../helpers/argv';
import { tempDir } from '../../helpers/temp-dir';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const DOCUMENTED = [0, 1, 2, 3, 4, 5, 6];

/**
 * Commands that end by themselves without walking the disk (`run` and `sandbox` serve until stopped, `add`
 * and `estimate` would walk any folder the generator names, `/` included).
 */
const FINITE = [
  'status',
  'retry',
  'cancel',
  'pause',
  'resume',
  'clear',
  'logs',
  'me',
  'langs',
  'login',
  'help',
];

describe('the real dubdesk process, whatever it is given', () => {
  it('ends with a documented exit code and never prints a stack trace', async () => {
    const work = tempDir('dubdesk-argv-');
    const env = {
      ...process.env,
      DUBDESK_HOME: `${work}/home`,
      XDG_CONFIG_HOME: work,
      DUBDESK_BASE_URL: 'http://127.0.0.1:9',
      DUBDESK_API_KEY: 'argv-test-key',
    };
    await fc.assert(
      fc.asyncProperty(
        argvArbitrary({ commands: FINITE, noNul: true }).map((argv) =>
          // Where the data lives stays fixed: a generated --home could be any folder, `/` included.
          argv.filter((a) => !/^--(home|base-url|legacy-url)/.test(a)),
        ),
        async (argv) => {
          const r = await runCli(argv, env, work);
          expect(DOCUMENTED, r.stderr).toContain(r.code);
          expect(r.stderr).not.toMatch(/\n\s+at /);
          expect(r.stdout + r.stderr).not.toMatch(CONTROL_BUT_NEWLINE);
        },
      ),
      { numRuns: 12 },
    );
  });
});

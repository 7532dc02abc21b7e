import { CommanderError } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProgram, runDubdesk } from '../../electron/cli/program';
import { argvArbitrary } from '../helpers/argv';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const HINT = /^\(see `dubdesk( [a-z-]+)? --help`\)$/;

/** Parses `argv` with the real program, stopping right before a command would run. */
async function parse(argv: string[]) {
  let out = '';
  let err = '';
  let reached: string | null = null;
  const program = buildProgram({ writeOut: (s) => (out += s), writeErr: (s) => (err += s) });
  program.hook('preAction', (_root, action) => {
    reached = action.name();
    throw new CommanderError(0, 'test.reached', 'parsed');
  });
  const code = await runDubdesk(argv, program);
  return { code, out, err, reached };
}

describe('the command line, whatever it is given', () => {
  it('ends in a clean exit code with one line saying what is wrong and where to get help', async () => {
    await fc.assert(
      fc.asyncProperty(argvArbitrary(), async (argv) => {
        const r = await parse(argv);
        expect([0, 2]).toContain(r.code);
        expect(r.out + r.err).not.toMatch(CONTROL_BUT_NEWLINE);
        expect(r.err).not.toMatch(/\n\s+at /);
        if (r.code === 0) return;
        expect(r.reached).toBeNull();
        const lines = r.err.trimEnd().split('\n');
        if (lines[0]?.startsWith('Usage: dubdesk')) return; // no command at all: the overview
        expect(lines[0]).toMatch(/^error: /);
        expect(lines.at(-1)).toMatch(HINT);
        // The error, perhaps a "did you mean", and the hint: never the whole help.
        expect(lines.length).toBeLessThanOrEqual(3);
      }),
      { numRuns: 600 },
    );
  });

  it('reaches the command for well-formed arguments, and prints the version', async () => {
    expect((await parse(['status', '--state', 'failed,queued', '--limit', '5'])).reached).toBe('status');
    expect((await parse(['cancel', '11', '12'])).reached).toBe('cancel');
    expect((await parse(['add', 'a.mp4', '--to', 'es,fr', '--outputs', 'all'])).reached).toBe('add');
    const v = await parse(['--version']);
    expect(v).toMatchObject({ code: 0, out: '0.1.0\n', reached: null });
  });

  it('says what is wrong with a value in one line', async () => {
    const r = await parse(['status', '--limit', 'x\u001b]0;PWNED\u0007\ny\u001b[2J']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "error: option '--limit <n>' argument 'x y' is invalid. expected a whole number of at least 1\n" +
        '(see `dubdesk status --help`)\n',
    );
    const typo = await parse(['stauts']);
    expect(typo.err).toBe(
      "error: unknown command 'stauts'\n(Did you mean status?)\n(see `dubdesk --help`)\n",
    );
    // A file whose name starts with a dash reads as an option: the error says how to name it.
    expect((await parse(['add', '-take-2.mp4', '--to', 'es'])).err).toBe(
      "error: unknown option '-take-2.mp4'\n(a file? write it as ./-take-2.mp4)\n(see `dubdesk add --help`)\n",
    );
    expect((await parse(['add', './-take-2.mp4', '--to', 'es'])).reached).toBe('add');
  });
});

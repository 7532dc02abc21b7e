import fc from 'fast-check';
import type { Command } from 'commander';
import { buildProgram } from '../../electron/cli/program';

/** Every command name and every long and short flag the real program knows, globals included. */
export function vocabulary(program: Command = buildProgram()): { commands: string[]; flags: string[] } {
  const all = [program, ...program.commands];
  const flags = all
    .flatMap((c) => c.options.flatMap((o) => [o.long, o.short]))
    .filter((f) => f !== undefined);
  return { commands: [...program.commands.map((c) => c.name()), 'help'], flags: [...new Set(flags)] };
}

/**
 * Command lines a user, a script or an attacker might type: known commands and flags in any order and number,
 * values of any kind (controls, escapes, unicode, huge numbers, very long strings), `--flag=value` forms.
 */
export function argvArbitrary(opts: { commands?: string[]; noNul?: boolean } = {}): fc.Arbitrary<string[]> {
  const words = vocabulary();
  const commands = opts.commands ?? words.commands;
  const text = fc
    .oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom(
        '',
        '-',
        '--',
        '---',
        '-1',
        '0',
        '1e309',
        'NaN',
        'Infinity',
        '0x10',
        '9'.repeat(400),
        '#12',
        'es,fr',
        'all',
        'auto',
        '\u001b]0;PWNED\u0007',
        '\u202eevil',
        'café 🎬 字幕',
      ),
      fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
      fc.string({ minLength: 2000, maxLength: 20_000, unit: 'binary-ascii' }),
    )
    .map((s) => (opts.noNul ? s.replaceAll('\u0000', '') : s));
  const flag = fc.constantFrom(...words.flags);
  const token = fc.oneof(
    { weight: 3, arbitrary: flag },
    { weight: 3, arbitrary: text },
    { weight: 1, arbitrary: fc.constantFrom(...commands) },
    { weight: 1, arbitrary: fc.tuple(flag, text).map(([f, v]) => `${f}=${v}`) },
  );
  return fc.oneof(
    fc.array(token, { maxLength: 12 }),
    fc
      .tuple(fc.constantFrom(...commands), fc.array(token, { maxLength: 12 }))
      .map(([c, rest]) => [c, ...rest]),
  );
}

// How long a `dubdesk` command takes to start and end, beside `node -e 0` (docs/performance.md, "A command's
// start"). Each command runs RUNS times (default 20) after two untimed runs, the commands taken in turns so a
// change in the machine's load falls on all of them alike; it prints the median wall and CPU (user + system)
// time of each, from GNU time. Against an empty home of its own (made here); `dubdesk` is this checkout's.
//   node scripts/cli-start-times.mjs [RUNS] [ANOTHER_CHECKOUT]
// With another checkout (say `git worktree add /tmp/before main`, then `npm run build:cli` there), its
// `dubdesk` runs in the same turns, for a before and after.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 20);
const here = fileURLToPath(new URL('..', import.meta.url));
const checkouts = [['', here], ...(process.argv[3] ? [['before ', resolve(process.argv[3])]] : [])];
const home = mkdtempSync(join(tmpdir(), 'dubdesk-start-'));
const env = { ...process.env, DUBDESK_HOME: home };

const commands = [{ label: 'node -e 0', argv: ['-e', '0'] }];
for (const args of [['--version'], ['--help'], ['status'], ['status', '--json']])
  for (const [name, root] of checkouts)
    commands.push({
      label: `${name}dubdesk ${args.join(' ')}`,
      argv: [join(root, 'electron/cli/dubdesk.mjs'), ...args],
    });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const times = commands.map(() => ({ wall: [], cpu: [] }));
try {
  for (let round = -2; round < runs; round++)
    commands.forEach((c, i) => {
      const r = spawnSync('/usr/bin/time', ['-f', '@@ %e %U %S', process.execPath, ...c.argv], {
        env,
        encoding: 'utf8',
      });
      const m = /@@ ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
      if (r.status !== 0 || !m) throw new Error(`${c.label} failed (${r.status}): ${r.stderr.slice(-400)}`);
      if (round < 0) return;
      times[i].wall.push(Number(m[1]));
      times[i].cpu.push(Number(m[2]) + Number(m[3]));
    });
} finally {
  rmSync(home, { recursive: true, force: true });
}
commands.forEach((c, i) =>
  console.log(
    `${c.label.padEnd(30)} wall ${median(times[i].wall).toFixed(2)} s   CPU ${median(times[i].cpu).toFixed(2)} s`,
  ),
);

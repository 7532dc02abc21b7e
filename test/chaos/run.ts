/** `npm run chaos [-- --jobs 40 --kills 50 --seed 7 --jump-hours 3]`: the long run, with its figures. */
import { parseArgs } from 'node:util';
import { runChaos } from './chaos';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '40' },
    kills: { type: 'string', default: '50' },
    seed: { type: 'string', default: '7' },
    'jump-hours': { type: 'string', default: '3' },
  },
});
const report = await runChaos({
  jobs: Number(values.jobs),
  kills: Number(values.kills),
  seed: Number(values.seed),
  jumpHours: Number(values['jump-hours']),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
if (report.problems.length) {
  process.stderr.write(`chaos: ${report.problems.length} problem(s); replay with --seed ${values.seed}\n`);
  process.exitCode = 1;
}

// `npm test` runs this first: a too-old Node gets a sentence instead of a crash half way through the tests.
import { nodeProblem } from '../electron/cli/node-version.mjs';

var problem = nodeProblem(process.versions.node);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exitCode = 1;
}

// `npm install` (preinstall) and `npm test` run this first: a too-old Node gets a sentence instead of a
// crash half way through. Plain JavaScript that any Node parses, importing nothing installed.
import { nodeProblem } from '../electron/cli/node-version.mjs';

var problem = nodeProblem(process.versions.node);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exitCode = 1;
}

#!/usr/bin/env node
// The `dubdesk` command. The Node version is checked before anything else is loaded; then the compiled CLI
// runs (dist/cli, built by `npm install`), or the TypeScript sources through tsx when it is missing or stale.
import { nodeProblem } from './node-version.mjs';

var problem = nodeProblem(process.versions.node);
if (problem) {
  process.stderr.write(problem + '\n');
  process.exitCode = 2;
} else {
  import('./launch.mjs')
    .then(function (m) {
      return m.launch();
    })
    .catch(function (e) {
      process.stderr.write('dubdesk: cannot start (' + (e && e.message) + '); run `npm install` again.\n');
      process.exitCode = 1;
    });
}

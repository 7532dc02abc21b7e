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
      return import('./load-failure.mjs').then(function (m) {
        var said = m.explainLoadFailure(e, process.argv.slice(2));
        process.stderr.write(said.text);
        process.exitCode = said.code;
      });
    });
}

// Plain JavaScript without imports, in syntax an old Node still parses: it runs before anything else so
// that a too-old Node gets a sentence saying what to install instead of a crash or a segmentation fault.

/** The oldest Node.js Dubdesk runs on; package.json's `engines` says the same (a test checks it). */
export var MIN_NODE = '22.22.0';

/** What to tell the user when `version` (e.g. `20.11.0`) is too old; null when it will do. */
export function nodeProblem(version) {
  var want = MIN_NODE.split('.').map(Number);
  var have = String(version).replace(/^v/, '').split('.').map(Number);
  for (var i = 0; i < want.length; i++) {
    var h = have[i] || 0;
    if (h > want[i]) return null;
    if (h < want[i]) {
      return (
        'Dubdesk needs Node.js ' +
        MIN_NODE.replace(/\.0$/, '') +
        ' or newer; this is Node.js ' +
        version +
        '.\n' +
        'Install Node.js 22 LTS (https://nodejs.org/, or `nvm install` in this folder: .nvmrc names it),\n' +
        'then run `npm install` again (in this folder).'
      );
    }
  }
  return null;
}

// Why the compiled CLI could not be loaded, in words a user can act on. A native module that needs a newer
// C library than this Linux has fails at load (before `dubdesk doctor` can run): that is said plainly,
// in the doctor's own form when `doctor` was asked for. Plain JavaScript: it runs before anything else.

var GLIBC_FIX =
  'Use a Linux with glibc 2.34 or newer: Ubuntu 22.04, Debian 12, Fedora 35, RHEL 9 or later (or run Dubdesk in a container with one).';

function glibcVersion() {
  try {
    return process.report.getReport().header.glibcVersionRuntime || null;
  } catch {
    return null;
  }
}

/**
 * What to print, and the exit code, when loading the CLI threw `error`.
 * @param {unknown} error
 * @param {string[]} args the command line after `dubdesk`
 * @param {string | null} [glibc] this system's glibc (read when not given)
 * @returns {{ text: string, code: number }}
 */
export function explainLoadFailure(error, args, glibc) {
  var message = String((error && error.message) || error);
  if (!/GLIBC_\d|GLIBCXX_\d/.test(message))
    return { text: 'dubdesk: cannot start (' + message + '); run `npm install` again.\n', code: 1 };
  var have = glibc === undefined ? glibcVersion() : glibc;
  var found =
    'glibc ' + (have || 'of this system') + ' is older than the 2.34 Dubdesk\u2019s native modules need';
  if (args[0] === 'doctor')
    return { text: '\u2717 System: ' + found + '\n    fix: ' + GLIBC_FIX + '\n', code: 1 };
  return { text: 'dubdesk: cannot start: ' + found + '. ' + GLIBC_FIX + '\n', code: 1 };
}

import open from 'open';

/**
 * Opens `target` in the default browser, if the machine has one; never fails (the address is printed
 * anyway). Whatever `target` is reaches the opener's and the browser's command line, where any local user
 * can read it (`ps`, /proc/<pid>/cmdline): serve passes the path of a private redirect file
 * (redirect-file.ts), never an address with a code, and never the session token.
 */
export async function openBrowser(target: string, say: (line: string) => void): Promise<void> {
  const failed = () => say('No browser could be opened here: open the address above yourself.');
  try {
    const child = await open(target);
    child.once('error', failed);
    child.unref();
  } catch {
    failed();
  }
}

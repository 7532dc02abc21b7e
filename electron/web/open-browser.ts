import open from 'open';

/**
 * Opens `url` in the default browser, if the machine has one; never fails (the address is printed anyway).
 * The address holds the token: it reaches the browser through the opener's arguments, like any link a
 * desktop hands to a browser, and is never written to a log.
 */
export async function openBrowser(url: string, say: (line: string) => void): Promise<void> {
  const failed = () => say('No browser could be opened here: open the address above yourself.');
  try {
    const child = await open(url);
    child.once('error', failed);
    child.unref();
  } catch {
    failed();
  }
}

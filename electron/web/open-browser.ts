import open from 'open';

/**
 * Opens `url` in the default browser, if the machine has one; never fails (the address is printed anyway).
 * The address reaches the browser through the opener's arguments, where any local user can read it
 * (`ps`), and it stays in the browser's history: it carries a one-time code (session-codes.ts), never the
 * session token.
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

import { read } from 'read';

/** Typed at a terminal without echo; otherwise read whole from stdin (`echo "$KEY" | dubdesk login`). */
export async function readKey(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  const key = await read({
    prompt: 'API key (input hidden): ',
    silent: true,
    replace: '',
    output: process.stderr,
  });
  return key.trim();
}

import { read } from 'read';
import { DubdeskError } from '../../shared/contract/errors';

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
  }).catch(() => {
    throw new DubdeskError('canceled', 'login canceled; nothing was saved');
  });
  process.stderr.write('\n'); // the Enter typed was hidden too
  return key.trim();
}

/**
 * Node's own ceiling for a pre-signed PUT on this machine: a bare `net` socket sending a GiB from one buffer
 * already in memory (no file to read, no HTTP library, no engine). Prints `{ uploadMs }`, the time from the
 * connection to the end of the answer, as curl's `time_total` counts it.
 */
import { connect } from 'node:net';

const { url, bytes } = JSON.parse(process.argv[2] ?? '{}') as { url: string; bytes: number };
const target = new URL(url);
const chunk = Buffer.alloc(1024 * 1024);
const started = performance.now();
const socket = connect(Number(target.port), target.hostname, () => {
  socket.write(
    `PUT ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\ncontent-type: video/mp4\r\n` +
      `content-length: ${bytes}\r\nconnection: close\r\n\r\n`,
  );
  let sent = 0;
  const pump = (): void => {
    while (sent < bytes) {
      const n = Math.min(chunk.length, bytes - sent);
      sent += n;
      if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        socket.once('drain', pump);
        return;
      }
    }
  };
  pump();
});
socket.setNoDelay(true);
let answer = '';
socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
socket.on('end', () => {
  const uploadMs = performance.now() - started;
  if (!/^HTTP\/1\.1 2/.test(answer)) {
    process.stderr.write(`bare PUT answered ${answer.slice(0, 80)}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ uploadMs })}\n`);
});

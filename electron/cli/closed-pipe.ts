const closed = new AbortController();

/** Aborted once the reader of stdout or stderr has gone away (`dubdesk logs 3 | head`). */
export const outputClosed: AbortSignal = closed.signal;

/**
 * A reader that goes away is not an error of ours: what is left to print is dropped, and the command ends
 * its own way (a listing at once, a batch when its jobs are done), closing the engine (its log flushed, the
 * queue's lock given back); `process.exit` here used to crash in the log's exit hook when the log file was
 * still being opened.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      stream.write = (() => true) as typeof stream.write;
      closed.abort();
    });
}

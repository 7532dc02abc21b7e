import { runDubdesk } from './program';

// `dubdesk logs 3 | head`: the reader went away, which is not an error of ours; say nothing more.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });

process.exitCode = await runDubdesk(process.argv.slice(2));

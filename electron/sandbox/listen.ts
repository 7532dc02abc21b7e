import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Listens on `port` when one is required; otherwise tries the preferred port (the last one used, so
 * pre-signed URLs handed out before a restart still reach it) and takes any free port if that one is taken.
 */
export async function listen(
  server: Server,
  host: string,
  port: { required: number } | { preferred: number | null },
): Promise<number> {
  if ('required' in port) await listenOn(server, port.required, host);
  else if (port.preferred) {
    await listenOn(server, port.preferred, host).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EADDRINUSE' && e.code !== 'EACCES') throw e;
      await listenOn(server, 0, host);
    });
  } else await listenOn(server, 0, host);
  return (server.address() as AddressInfo).port;
}

import { createServer } from 'node:net';

/** A port the service is told to listen on, and the setting that names it. */
export interface WantedPort {
  setting: string;
  host: string;
  port: number;
}

function portFree({ host, port }: WantedPort): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Throws, naming the setting to change, when a port the service will listen on is already held (another copy of the
 * service on this machine). Checked before the database is opened: a clash found at `listen` came after the whole
 * start (half a minute on the embedded database), as a bare EADDRINUSE.
 */
export async function assertPortsFree(wanted: WantedPort[]): Promise<void> {
  const taken: string[] = [];
  for (const want of wanted) {
    // Port 0 asks the system for any free one: it cannot clash.
    if (want.port === 0 || (await portFree(want))) continue;
    taken.push(
      `${want.setting}=${want.port}: port ${want.port} on ${want.host} is already in use (another copy of this ` +
        `service, or another program); set ${want.setting} to a free port`,
    );
  }
  if (taken.length > 0) throw new Error(taken.join('; '));
}

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type RunningApp } from '../../src/app';
import type { AppConfig } from '../../src/config';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The app on a real port, with the provider's callback URLs pointing at it. */
export async function startListeningApp(config: AppConfig): Promise<RunningApp & { url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const running = await createApp({ ...config, port, publicBaseUrl: url });
  await running.app.listen(port, '127.0.0.1');
  return { ...running, url };
}

export interface ReceivedNotification {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A merchant's notification endpoint: records every request; `answer` decides the status (default 200), so tests can
 * make it fail a few times.
 */
export async function startMerchantReceiver(answer: (n: ReceivedNotification, index: number) => number = () => 200) {
  const received: ReceivedNotification[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(n);
      res.writeHead(answer(n, received.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/payments`,
    received,
    forReference: (reference: string) =>
      received.filter((n) => (JSON.parse(n.body) as { reference: string }).reference === reference),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until the check passes or the time runs out (then the last failure is thrown). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

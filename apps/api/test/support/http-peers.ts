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

/**
 * Sends a request the way the API documents for a client: a 503 (DATABASE_UNAVAILABLE) or 429 with Retry-After
 * changed nothing, so it is sent again after the seconds it names (capped, and a bounded number of times). Answers the
 * last response and how many times the request was shed.
 */
export async function honouringRetryAfter(
  send: () => Promise<Response>,
  { retries = 10, waitCapMs = 5_000 } = {},
): Promise<{ res: Response; shed: number }> {
  for (let shed = 0; ; shed++) {
    const res = await send();
    const retryAfter = Number(res.headers.get('retry-after'));
    const sheddable = (res.status === 503 || res.status === 429) && res.headers.has('retry-after');
    if (!sheddable || shed >= retries) return { res, shed };
    await res.body?.cancel();
    const waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, waitCapMs)));
  }
}

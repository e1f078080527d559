import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { honouringRetryAfter } from './support/http-peers';

/** A server answering from a script: each entry is [status, Retry-After or none]; the last one repeats. */
async function scripted(answers: Array<[number, string?]>): Promise<{ url: string; hits: number[]; server: Server }> {
  const hits: number[] = [];
  const server = createServer((_req, res) => {
    hits.push(Date.now());
    const [status, retryAfter] = answers[Math.min(hits.length - 1, answers.length - 1)];
    if (retryAfter !== undefined) res.setHeader('retry-after', retryAfter);
    res.statusCode = status;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, hits, server };
}

// The storm test's client (storm.e2e.spec.ts): a shed request is sent again as the API documents, never a failure.
describe('a client honouring Retry-After', () => {
  it('sends a request shed with 503 and Retry-After again after the seconds named, and counts it shed', async () => {
    const peer = await scripted([[503, '1'], [201]]);
    try {
      const { res, shed } = await honouringRetryAfter(() => fetch(peer.url, { method: 'POST' }));
      expect([res.status, shed]).toEqual([201, 1]);
      expect(peer.hits[1] - peer.hits[0]).toBeGreaterThanOrEqual(950);
    } finally {
      peer.server.close();
    }
  });

  it('does not retry an answer without Retry-After, and stops after a bounded number of sheds with a capped wait', async () => {
    const plain = await scripted([[503]]);
    const busy = await scripted([[429, '3600']]);
    try {
      expect((await honouringRetryAfter(() => fetch(plain.url))).shed).toBe(0);
      const started = Date.now();
      const { res, shed } = await honouringRetryAfter(() => fetch(busy.url), { retries: 2, waitCapMs: 50 });
      expect([res.status, shed, busy.hits.length]).toEqual([429, 2, 3]);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      plain.server.close();
      busy.server.close();
    }
  });
});

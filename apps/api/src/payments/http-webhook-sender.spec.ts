import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { HttpWebhookSender, type Resolver } from './http-webhook-sender';

/** A receiver on loopback that counts what reaches it: the place a rebinding attack would want us to post to. */
async function receiver(): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

/** A DNS stub answering from a script, one answer per question, recording the questions. */
function scriptedResolver(answers: string[][]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    asked.push(host);
    return (answers.shift() ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

describe('HttpWebhookSender', () => {
  let r: Awaited<ReturnType<typeof receiver>>;
  beforeEach(async () => {
    r = await receiver();
  });
  afterEach(async () => {
    await new Promise((resolve) => r.server.close(resolve));
  });

  it('never connects to a name that resolved public when checked and to 127.0.0.1 when connecting (DNS rebinding)', async () => {
    const dns = scriptedResolver([['93.184.216.34'], ['127.0.0.1']]);
    // Whatever looked at the name earlier saw a public address...
    expect((await dns('rebind.test')).map((a) => a.address)).toEqual(['93.184.216.34']);
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivate: false, allowlist: new Set(), resolve: dns });
    // ...the connection resolves once more, on its own, and refuses what it gets now.
    await expect(
      sender.send(`http://rebind.test:${r.port}/hook`, { 'content-type': 'application/json' }, '{}'),
    ).rejects.toThrow(/127\.0\.0\.1, not a public address/);
    expect(dns.asked).toEqual(['rebind.test', 'rebind.test']);
    expect(r.hits).toEqual([]);
  });

  it('refuses a name that resolves to a mix of public and private addresses only through its public ones', async () => {
    const dns = scriptedResolver([['10.0.0.5', '127.0.0.1']]);
    const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivate: false, allowlist: new Set(), resolve: dns });
    await expect(sender.send(`http://mixed.test:${r.port}/`, {}, '{}')).rejects.toThrow(/not a public address/);
    expect(r.hits).toEqual([]);
  });

  it.each(['http://192.0.2.1/cb', 'http://[64:ff9b::7f00:1]/cb', 'http://127.0.0.1/cb'])(
    'refuses the address literal %s without a connection',
    async (url) => {
      const sender = new HttpWebhookSender({ timeoutMs: 2000, allowPrivate: false, allowlist: new Set() });
      await expect(sender.send(url, {}, '{}')).rejects.toThrow(/not a public address/);
    },
  );

  it('posts to an allowlisted receiver (host and port) and answers its status; the host on another port is refused', async () => {
    const elsewhere = new HttpWebhookSender({
      timeoutMs: 2000,
      allowPrivate: false,
      allowlist: new Set(['127.0.0.1']),
    });
    await expect(elsewhere.send(`http://127.0.0.1:${r.port}/hook`, {}, '{}')).rejects.toThrow(/refused/);
    const sender = new HttpWebhookSender({
      timeoutMs: 2000,
      allowPrivate: false,
      allowlist: new Set([`127.0.0.1:${r.port}`]),
    });
    expect(
      await sender.send(`http://127.0.0.1:${r.port}/hook`, { 'content-type': 'application/json' }, '{"a":1}'),
    ).toBe(204);
    expect(r.hits).toEqual(['{"a":1}']);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const sender = new HttpWebhookSender({ timeoutMs: 200, allowPrivate: true, allowlist: new Set() });
      await expect(
        sender.send(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, {}, '{}'),
      ).rejects.toThrow(/no answer within 200 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

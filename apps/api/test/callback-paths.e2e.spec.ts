import request from 'supertest';
import { createApp, type RunningApp } from '../src/app';
import { createRootLogger } from '../src/core/observability/logging';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

// The payment callback route is matched case-insensitively and with or without a trailing slash (the router's
// settings): every path the router answers as the callback must get the callback's raw-body limit (16 KiB, 413 past
// it, nothing stored) and have its token kept out of the logs, as the canonical path does.

/** What the service wrote, one line per entry. */
class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
}

/** A callback for a payment this service does not know, padded to `bytes`. */
const callbackOf = (bytes: number) => {
  const base = { ResponseCode: '0000', Message: 'success', Data: { Amount: 1, ClientReference: 'x', Description: '' } };
  const padding = bytes - JSON.stringify(base).length;
  return JSON.stringify({ ...base, Data: { ...base.Data, Description: 'p'.repeat(Math.max(0, padding)) } });
};

const VARIANTS = [
  (t: string) => `/payment/callback/${t}`,
  (t: string) => `/Payment/Callback/${t}`,
  (t: string) => `/payment/callback/${t}/`,
  (t: string) => `/PAYMENT/CALLBACK/${t}/`,
];

describeOnEachTier('payment callback paths the router matches', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  const log = new CapturedLog();
  const http = () => request(running.app.getHttpServer());
  const letters = () => running.database.prisma.paymentDeadLetter.count();

  beforeAll(async () => {
    store = await openTierStore(tier);
    running = await createApp(store.config({ logLevel: 'info' }), { logger: createRootLogger('info', log) });
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it('refuses a 90 kB body on every variant of the path with 413, as on the canonical one, and stores none', async () => {
    const raw = callbackOf(90 * 1024);
    for (const [i, path] of VARIANTS.entries()) {
      const before = await letters();
      const res = await http()
        .post(path(`oversizeToken${i}`.padEnd(43, 'q')))
        .set('content-type', 'application/json')
        .send(raw);
      expect({ path: path('T'), status: res.status }).toEqual({ path: path('T'), status: 413 });
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(await letters()).toBe(before);
    }
  });

  it('takes a callback under the limit on every variant as on the canonical path (404 for an unknown token)', async () => {
    for (const [i, path] of VARIANTS.entries())
      await http()
        .post(path(`smallToken${i}`.padEnd(43, 'q')))
        .set('content-type', 'text/plain')
        .send(callbackOf(200))
        .expect(404);
  });

  it('never logs the token, whatever the letter case of the path or a trailing slash', async () => {
    const tokens = VARIANTS.map((_, i) => `SecretTOKEN${i}`.padEnd(43, 'k'));
    for (const [i, path] of VARIANTS.entries())
      await http().post(path(tokens[i])).set('content-type', 'application/json').send(callbackOf(100)).expect(404);
    const all = log.raw.join('\n');
    for (const token of tokens) expect({ token, logged: all.includes(token) }).toEqual({ token, logged: false });
    const urls = log.raw
      .map((line) => JSON.parse(line) as { req?: { url?: string }; res?: unknown })
      .filter((l) => l.req?.url && l.res)
      .map((l) => l.req!.url!);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/payment/callback/[redacted]',
        '/Payment/Callback/[redacted]',
        '/payment/callback/[redacted]/',
        '/PAYMENT/CALLBACK/[redacted]/',
      ]),
    );
  });
});

import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggableUrl, requestId, requestInstance } from './logging';

function exchange(headers: Record<string, string>) {
  const set: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (set[name] = value),
  } as unknown as ServerResponse;
  return { request: { headers } as unknown as IncomingMessage, response, set };
}

describe('request ids', () => {
  it("keeps the client's X-Request-Id and echoes it", () => {
    const { request, response, set } = exchange({ 'x-request-id': 'abc' });
    expect(requestId(request, response)).toBe('abc');
    expect(set['X-Request-Id']).toBe('abc');
    expect(requestInstance('abc')).toBe('urn:transport:request:abc');
  });

  it('replaces a missing, overlong or unsafe one with a new UUID (a log line cannot be forged through it)', () => {
    for (const given of [undefined, 'x'.repeat(101), 'a b', 'abc\n{"level":60}', '<script>']) {
      const { request, response, set } = exchange(given === undefined ? {} : { 'x-request-id': given });
      const id = requestId(request, response);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(set['X-Request-Id']).toBe(id);
    }
  });
});

describe('loggableUrl', () => {
  it('hides the callback token in the path', () => {
    expect(loggableUrl('/pay/payment/callback/Zk3v9yXq_secret-token')).toBe('/pay/payment/callback/[redacted]');
  });

  it('hides the callback token in any letter case and before a trailing slash', () => {
    expect(loggableUrl('/Payment/CALLBACK/Zk3v9yXq_secret-token/')).toBe('/Payment/CALLBACK/[redacted]/');
  });

  it("hides the token's segment of a path the router matched as the callback, however it is spelt", () => {
    expect(loggableUrl('/pa%79ment/callback/Zk3v9yXq_secret-token?x=1', true)).toBe(
      '/pa%79ment/callback/[redacted]?x=[redacted]',
    );
  });

  it('hides every query value that may be personal (emails, names searched for, phones), keeps paging and filters', () => {
    expect(loggableUrl('/drivers/all?email=ama%40example.com&limit=20&cursor=abc')).toBe(
      '/drivers/all?email=[redacted]&limit=20&cursor=abc',
    );
    expect(loggableUrl('/vehicles/owner/search?query=Yirenkyi')).toBe('/vehicles/owner/search?query=[redacted]');
    expect(loggableUrl('/trips/intracity/date?date=2026-11-22&state=ended')).toBe(
      '/trips/intracity/date?date=2026-11-22&state=ended',
    );
    expect(loggableUrl('/vehicles/all')).toBe('/vehicles/all');
  });
});

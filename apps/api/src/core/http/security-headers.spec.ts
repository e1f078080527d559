import helmet from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { HELMET_OPTIONS, SECURITY_HEADERS } from './http-pipeline';

// The security headers are computed once at start (http-pipeline.ts): they must be exactly what helmet's middleware
// sets on a real response of any request, so a helmet upgrade that made them depend on the request shows here.
describe('SECURITY_HEADERS', () => {
  const helmetOn = (method: string, url: string, headers: Record<string, string>) => {
    const request = new IncomingMessage(new Socket());
    Object.assign(request, { method, url, headers });
    const response = new ServerResponse(request);
    response.setHeader('X-Powered-By', 'something');
    helmet(HELMET_OPTIONS)(request, response, () => undefined);
    return response.getHeaders();
  };
  const ours = Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]));

  it.each([
    ['GET', '/vehicles/all', {}],
    ['POST', '/drivers/add', { 'content-type': 'application/json', origin: 'https://example.org' }],
    ['GET', '/docs', { 'user-agent': 'Mozilla/5.0 (MSIE 8.0)', 'x-forwarded-proto': 'https' }],
  ])('are what helmet sets on %s %s', (method, url, headers) => {
    expect(helmetOn(method, url, headers)).toEqual(ours);
  });

  it('keep /docs working over plain http and refuse framing by others', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("script-src 'self'");
    expect(SECURITY_HEADERS['Content-Security-Policy']).not.toContain('upgrade-insecure-requests');
    expect(SECURITY_HEADERS['X-Frame-Options']).toBe('SAMEORIGIN');
  });
});

import etag from 'etag';
import { weakEtag } from './conditional-answers';

// The ETag an answer carries must be the one Express's `etag` package gave it: a client that cached an answer before
// the switch to Fastify revalidates with that value.
describe('weakEtag', () => {
  const bodies: Array<string | Buffer> = [
    '',
    '{"status":"ok","info":{},"error":{},"details":{}}',
    JSON.stringify({ name: 'Kwame Nkrumah Circle – Accra', note: 'ɛ ɔ ŋ 🚕' }),
    'x'.repeat(70_000),
    Buffer.from([0, 1, 2, 254, 255]),
    Buffer.alloc(0),
  ];

  it.each(bodies.map((body) => [body.length, body]))('gives the etag package’s weak value (length %i)', (_n, body) => {
    expect(weakEtag(body)).toBe(etag(body, { weak: true }));
  });
});

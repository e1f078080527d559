import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { appOnTier } from './support/app-on-tier';
import { describeOnPostgres } from './support/postgres-only';

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(server: Server, text: string): Promise<string> {
  const { port } = server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describeOnPostgres('answers as Express gave them: ETags, 304s, and problems for requests Node cannot read', () => {
  const { running, http, fixture } = appOnTier('postgresql', { fixture: true });
  let server: Server;
  beforeAll(async () => {
    server = running.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it("sends a weak ETag over the body, Express's own value, and 304 without a body to a client that has it", async () => {
    const first = await http().get('/vehicles/all?limit=2').expect(200);
    const body = Buffer.from(first.text);
    const sha1 = createHash('sha1').update(body).digest('base64').slice(0, 27);
    expect(first.headers.etag).toBe(`W/"${body.length.toString(16)}-${sha1}"`);

    const again = await http().get('/vehicles/all?limit=2').set('If-None-Match', first.headers.etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers.etag).toBe(first.headers.etag);

    await http().get('/vehicles/all?limit=2').set('If-None-Match', 'W/"0-nothing"').expect(200);
    await http().get('/vehicles/all?limit=3').set('If-None-Match', first.headers.etag).expect(200);
  });

  it('answers a change in full whatever its If-None-Match, and tags errors too, never 304', async () => {
    const refused = await http().post('/drivers/add').set('If-None-Match', '*').send({}).expect(400);
    expect(refused.headers.etag).toMatch(/^W\/"/);
    const missing = await http().get('/nope').expect(404);
    await http().get('/nope').set('If-None-Match', missing.headers.etag).expect(404);
  });

  it('streams a CSV export without an ETag, as before', async () => {
    const csv = await http()
      .get('/vehicles/all')
      .set('Authorization', fixture.keys.admin)
      .set('Accept', 'text/csv')
      .expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers.etag).toBeUndefined();
  });

  it('answers headers past the size limit with a 431 problem and closes', async () => {
    const answer = await raw(server, `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8/);
    expect(JSON.parse(body)).toEqual({
      type: 'urn:transport:problem:headers-too-large',
      title: 'Request Header Fields Too Large',
      status: 431,
      detail: 'The request headers (the URL included) are larger than this server reads',
      code: 'HEADERS_TOO_LARGE',
    });
  });

  it('answers a request that is not HTTP with a 400 problem and closes', async () => {
    const answer = await raw(server, 'HELLO THERE\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(body)).toMatchObject({
      status: 400,
      detail: 'The request is not valid HTTP',
      code: 'MALFORMED_REQUEST',
    });
  });
});

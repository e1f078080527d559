import type { FastifyReply, FastifyRequest } from 'fastify';
import { accessLog, keepsLine, type AccessLogPolicy } from './access-log';
import { createRootLogger } from './logging';

/** A destination keeping each line as written. */
function captured() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

function answered(method: string, url: string, status: number, ms: number, socketGone = false) {
  const request = {
    id: 'req-1',
    method,
    url,
    ip: socketGone ? undefined : '10.1.2.3',
    routeOptions: { url: '/x' },
  } as unknown as FastifyRequest;
  const reply = { statusCode: status, elapsedTime: ms } as unknown as FastifyReply;
  return [request, reply] as const;
}

const EVERY: AccessLogPolicy = { readSample: 1, slowMs: 1000 };

describe('the access line', () => {
  it("is byte for byte what pino's own logger.info writes for the same fields, apart from the time", () => {
    const hand = captured();
    const viaPino = captured();
    accessLog(
      createRootLogger('info', hand.stream),
      EVERY,
    )(...answered('GET', '/drivers/all?email=a%40b.c&limit=2', 200, 3.4));
    createRootLogger('info', viaPino.stream).info(
      {
        req: { id: 'req-1', method: 'GET', url: '/drivers/all?email=[redacted]&limit=2', remoteAddress: '10.1.2.3' },
        res: { statusCode: 200 },
        responseTime: 3,
      },
      'GET 200',
    );
    const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    expect(hand.lines).toHaveLength(1);
    expect(withoutTime(hand.lines[0])).toBe(withoutTime(viaPino.lines[0]));
    expect(JSON.parse(hand.lines[0]).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('writes a 5xx at level error, escapes what the client chose, and leaves out an address the socket lost', () => {
    const hand = captured();
    accessLog(createRootLogger('info', hand.stream), EVERY)(...answered('GET', '/a"b\\c', 503, 12, true));
    const line = JSON.parse(hand.lines[0]);
    expect(line).toMatchObject({ level: 50, req: { url: '/a"b\\c' }, res: { statusCode: 503 }, msg: 'GET 503' });
    expect(line.req).not.toHaveProperty('remoteAddress');
  });

  it('writes nothing below its level', () => {
    const hand = captured();
    const log = accessLog(createRootLogger('error', hand.stream), EVERY);
    log(...answered('GET', '/a', 200, 1));
    log(...answered('GET', '/a', 500, 1));
    expect(hand.lines.map((l) => JSON.parse(l).res.statusCode)).toEqual([500]);
  });
});

describe('sampling the successful reads (ACCESS_LOG_READ_SAMPLE)', () => {
  const policy: AccessLogPolicy = { readSample: 0.25, slowMs: 500 };

  it('keeps a fast successful read when the draw falls under the share, and only then', () => {
    const read = { method: 'GET', status: 200, ms: 4 };
    expect(keepsLine(policy, read, () => 0.2)).toBe(true);
    expect(keepsLine(policy, read, () => 0.25)).toBe(false);
    expect(keepsLine(policy, { ...read, method: 'HEAD' }, () => 0.9)).toBe(false);
    expect(keepsLine({ ...policy, readSample: 0 }, read, () => 0)).toBe(false);
  });

  it('always keeps every other answer: non-2xx, slow, and every write', () => {
    const never = () => 0.999;
    for (const status of [101, 304, 400, 401, 404, 429, 500, 503])
      expect(keepsLine(policy, { method: 'GET', status, ms: 1 }, never)).toBe(true);
    expect(keepsLine(policy, { method: 'GET', status: 200, ms: 500 }, never)).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      expect(keepsLine(policy, { method, status: 201, ms: 1 }, never)).toBe(true);
  });

  it('keeps every line without a draw at the default share of 1', () => {
    expect(keepsLine(EVERY, { method: 'GET', status: 200, ms: 1 }, () => 1)).toBe(true);
  });

  it('is applied by the access log itself', () => {
    const hand = captured();
    const draws = [0.9, 0.1];
    const log = accessLog(createRootLogger('info', hand.stream), policy, () => draws.shift() ?? 0.9);
    log(...answered('GET', '/kept-not', 200, 1));
    log(...answered('GET', '/kept', 200, 1));
    log(...answered('POST', '/write', 201, 1));
    expect(hand.lines.map((l) => JSON.parse(l).req.url)).toEqual(['/kept', '/write']);
  });
});

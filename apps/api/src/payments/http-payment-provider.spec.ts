import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpPaymentProvider, MAX_ANSWER_BYTES } from './http-payment-provider';

/** A provider stand-in that answers with `respond`, or destroys the connection when it returns 'reset'. */
async function provider(
  respond: (index: number, body: string, auth: string | undefined) => { status: number; body: unknown } | 'reset',
) {
  const calls: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}`);
      const answer = respond(calls.length - 1, body, req.headers.authorization);
      if (answer === 'reset') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

const request = {
  reference: 'R-1',
  amount: 25_500_000,
  description: 'Fare',
  customerName: 'A',
  customerPhone: '+233244000000',
  customerEmail: '',
  requestType: 'mobile_money',
  providerCallbackUrl: 'https://svc/cb/x',
};
const pending = { Message: 'pending', ResponseCode: '0001', Data: { ClientReference: 'R-1', Amount: 25.5 } };
const config = (url: string) => ({
  url,
  account: 'POS-1',
  clientId: 'id',
  clientSecret: 'secret',
  timeoutMs: 1000,
  retries: 2,
});

describe('HttpPaymentProvider', () => {
  it('posts the request as Hubtel documents it, with Basic authentication, and keeps the answer as requestInfo', async () => {
    let seen: { body: Record<string, unknown>; auth?: string } | undefined;
    const p = await provider((_, body, auth) => {
      seen = { body: JSON.parse(body), auth };
      return { status: 200, body: pending };
    });
    try {
      const info = await new HttpPaymentProvider(config(p.url)).requestPayment(request);
      expect(info).toEqual({
        Message: 'pending',
        ResponseCode: '0001',
        Data: { ClientReference: 'R-1', Amount: 25.5 },
      });
      expect(p.calls).toEqual(['POST /merchantaccount/merchants/POS-1/receive/mobilemoney']);
      expect(seen!.auth).toBe(`Basic ${Buffer.from('id:secret').toString('base64')}`);
      // Every field of "Direct Receive Money", and no other.
      expect(seen!.body).toEqual({
        CustomerName: 'A',
        CustomerMsisdn: '233244000000',
        CustomerEmail: '',
        Channel: 'mtn-gh',
        Amount: 25.5,
        PrimaryCallbackUrl: 'https://svc/cb/x',
        Description: 'Fare',
        ClientReference: 'R-1',
      });
    } finally {
      await p.close();
    }
  });

  it('names the channel from the network prefix (Telecel, AirtelTigo) and refuses a number on none', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const p = await provider((_, body) => {
      bodies.push(JSON.parse(body));
      return { status: 200, body: pending };
    });
    try {
      const hubtel = new HttpPaymentProvider(config(p.url));
      await hubtel.requestPayment({ ...request, customerPhone: '+233201234567', amount: 10_010_000 });
      await hubtel.requestPayment({ ...request, customerPhone: '+233571234567' });
      expect(bodies.map((b) => [b.Channel, b.Amount])).toEqual([
        ['vodafone-gh', 10.01],
        ['tigo-gh', 25.5],
      ]);
      await expect(hubtel.requestPayment({ ...request, customerPhone: '+447700900123' })).rejects.toMatchObject({
        code: 'PROVIDER_ERROR',
      });
    } finally {
      await p.close();
    }
  });

  it('sends a payment request once: no answer is left to the status API (a ClientReference is never reused)', async () => {
    const p = await provider(() => 'reset');
    try {
      await expect(new HttpPaymentProvider(config(p.url)).requestPayment(request)).rejects.toMatchObject({
        code: 'PROVIDER_UNREACHABLE',
      });
      expect(p.calls).toHaveLength(1);
    } finally {
      await p.close();
    }
  });

  it('retries a status check that got no answer (connection reset), and succeeds', async () => {
    const paid = { responseCode: '0000', data: { status: 'Paid', clientReference: 'R-1' } };
    const p = await provider((i) => (i === 0 ? 'reset' : { status: 200, body: paid }));
    try {
      expect((await new HttpPaymentProvider(config(p.url)).checkStatus('R-1')).state).toBe('paid');
      expect(p.calls).toHaveLength(2);
    } finally {
      await p.close();
    }
  });

  it('never retries an HTTP answer: a 500 without a response code is one call and a 502 problem', async () => {
    const p = await provider(() => ({ status: 500, body: { error: 'boom' } }));
    try {
      await expect(new HttpPaymentProvider(config(p.url)).requestPayment(request)).rejects.toMatchObject({
        status: 502,
      });
      expect(p.calls).toHaveLength(1);
    } finally {
      await p.close();
    }
  });

  it('keeps a refusal (4xx with a response code) as the answer, so the transaction starts failed', async () => {
    const p = await provider(() => ({ status: 400, body: { Message: 'refused', ResponseCode: '2001', Data: {} } }));
    try {
      expect(await new HttpPaymentProvider(config(p.url)).requestPayment(request)).toEqual({
        Message: 'refused',
        ResponseCode: '2001',
        Data: {},
      });
    } finally {
      await p.close();
    }
  });

  it('gives up a status check after the configured retries when nobody answers (PROVIDER_UNREACHABLE)', async () => {
    const p = await provider(() => 'reset');
    try {
      const error = await new HttpPaymentProvider(config(p.url))
        .checkStatus('R-1')
        .catch((e: { getResponse(): { problem: { code: string } } }) => e);
      expect((error as { getResponse(): { problem: { code: string } } }).getResponse().problem.code).toBe(
        'PROVIDER_UNREACHABLE',
      );
      expect(p.calls).toHaveLength(3);
    } finally {
      await p.close();
    }
  });

  it('maps the status API: Paid/Unpaid/Refunded, amount, reference and provider id; 404 is not found; else unknown', async () => {
    const answers: Record<string, { status: number; body: unknown }> = {
      PAID: {
        status: 200,
        body: {
          responseCode: '0000',
          data: { status: 'Paid', amount: 25.5, clientReference: 'PAID', transactionId: '7fd0' },
        },
      },
      REFUNDED: {
        status: 200,
        body: { responseCode: '0000', data: { status: 'Refunded', clientReference: 'REFUNDED' } },
      },
      UNPAID: { status: 200, body: { responseCode: '0000', data: { status: 'Unpaid', clientReference: 'UNPAID' } } },
      MISSING: { status: 404, body: { responseCode: '4040', message: 'not found' } },
      ODD: { status: 200, body: { responseCode: '0000', data: { status: 'Cancelled' } } },
    };
    const p = await provider((i) => Object.values(answers)[i]);
    try {
      const provider = new HttpPaymentProvider(config(p.url));
      expect(await provider.checkStatus('PAID')).toMatchObject({
        state: 'paid',
        amount: 25.5,
        clientReference: 'PAID',
        transactionId: '7fd0',
      });
      expect(await provider.checkStatus('REFUNDED')).toMatchObject({ state: 'refunded', clientReference: 'REFUNDED' });
      expect(await provider.checkStatus('UNPAID')).toMatchObject({ state: 'unpaid' });
      expect(await provider.checkStatus('MISSING')).toMatchObject({
        state: 'not_found',
        raw: { responseCode: '4040' },
      });
      expect(await provider.checkStatus('ODD')).toMatchObject({ state: 'unknown' });
      expect(p.calls[0]).toBe('GET /transactions/POS-1/status?clientReference=PAID');
    } finally {
      await p.close();
    }
  });

  it('reads no more than 64 KiB of an answer: a larger one is no answer (PROVIDER_ERROR), not a buffered megabyte', async () => {
    const p = await provider(() => ({ status: 200, body: { ...pending, Message: 'x'.repeat(MAX_ANSWER_BYTES + 1) } }));
    try {
      await expect(new HttpPaymentProvider(config(p.url)).requestPayment(request)).rejects.toMatchObject({
        code: 'PROVIDER_ERROR',
      });
      expect(await new HttpPaymentProvider(config(p.url)).checkStatus('R-1')).toMatchObject({ state: 'unknown' });
    } finally {
      await p.close();
    }
  });
});

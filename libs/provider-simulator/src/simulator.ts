import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A mobile-money provider for demos and tests that follows Hubtel's published "Direct Receive Money", "Receive Money
 * Callback" and "Transaction Status Check" documents field for field (request fields and their checks, answer and
 * callback bodies, the Paid/Unpaid statuses), decides each payment's outcome (its "truth"), and sends callbacks to
 * the PrimaryCallbackUrl after a delay, behaving as configured: fail, duplicate, reorder, drop, report a wrong
 * amount, or refuse the request.
 *
 *   POST /merchantaccount/merchants/:account/receive/mobilemoney   request a payment
 *   GET  /transactions/:account/status?clientReference=...         the status API (what reconciliation asks)
 *   PUT  /_simulator/behaviour                                     default behaviour (JSON Behaviour, partial)
 *   PUT  /_simulator/references/:key                               behaviour for one payment (see below)
 *   GET  /_simulator/transactions                                  every payment with its truth and callbacks sent
 *
 * What the documents leave open, decided here: a repeated ClientReference answers like the first request (no second
 * prompt); an unknown reference at the status API is HTTP 404. A behaviour or a lookup `key` matches a payment's
 * ClientReference or its Description (tests put their marker in the description, since the service names payments
 * by its own ids).
 */
export interface Behaviour {
  /** The payment's real outcome. */
  outcome: 'success' | 'failed';
  /** Refuse the request itself (ResponseCode 2001, HTTP 400): the transaction starts failed. */
  refuse: boolean;
  /** Milliseconds between the request and the first callback. */
  delayMs: number;
  /** Extra copies of the final callback. */
  duplicates: number;
  /** Send a stale "state unknown" (0005) callback after the final one, as if it had been delayed in transit. */
  reorder: boolean;
  /** Send no callback at all: only the status API tells (reconciliation). */
  drop: boolean;
  /** Report an amount one cedi higher than requested in the callback (and the status API). */
  wrongAmount: boolean;
}

export const DEFAULT_BEHAVIOUR: Behaviour = {
  outcome: 'success',
  refuse: false,
  delayMs: 200,
  duplicates: 0,
  reorder: false,
  drop: false,
  wrongAmount: false,
};

export interface SimulatedPayment {
  reference: string;
  transactionId: string;
  amount: number;
  description: string;
  callbackUrl: string;
  behaviour: Behaviour;
  /** What the status API reports: Paid (success) or Unpaid (failed, refused) once decided (immediately). */
  truth: 'success' | 'failed' | 'refused';
  requestedAt: string;
  callbacks: Array<{ at: string; responseCode: string; httpStatus: number | null; error?: string }>;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** When set, requests must carry Basic authentication with these. */
  clientId?: string;
  clientSecret?: string;
  /** When set, callbacks carry X-Provider-Signature: sha256=<hex HMAC-SHA256 of the body>. */
  callbackSecret?: string;
  behaviour?: Partial<Behaviour>;
  /** Don't send callbacks by itself (a test sends the planned ones); the status API still answers. */
  manualCallbacks?: boolean;
  log?: (line: string) => void;
}

export interface RunningSimulator {
  url: string;
  server: Server;
  payments: Map<string, SimulatedPayment>;
  setBehaviour(behaviour: Partial<Behaviour>, key?: string): void;
  /** The payment whose ClientReference or Description is `key`. */
  paymentFor(key: string): SimulatedPayment | undefined;
  /** The callback bodies the simulator would send for a payment, in its send order (after its delay). */
  plannedCallbacks(key: string): Array<{ url: string; body: string; headers: Record<string, string> }>;
  /** Resolves once no callback is waiting to be sent or being sent (a test's quiet point). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startProviderSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  let defaults: Behaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
  const overrides = new Map<string, Partial<Behaviour>>();
  const payments = new Map<string, SimulatedPayment>();
  const timers = new Set<NodeJS.Timeout>();
  let sending = 0;
  const log = options.log ?? (() => undefined);

  const paymentFor = (key: string) => payments.get(key) ?? [...payments.values()].find((p) => p.description === key);

  const callbackBody = (p: SimulatedPayment, code: string): string => {
    const amount = p.behaviour.wrongAmount ? p.amount + 1 : p.amount;
    const charges = Math.round(amount * 1) / 100;
    return JSON.stringify({
      ResponseCode: code,
      Message: code === '0000' ? 'success' : code === '0005' ? 'The state of the transaction is unknown' : 'failed',
      Data: {
        Amount: amount,
        Charges: charges,
        AmountAfterCharges: Math.round((amount - charges) * 100) / 100,
        Description:
          code === '0000'
            ? 'The MTN Mobile Money payment has been approved and processed successfully.'
            : p.description,
        ClientReference: p.reference,
        TransactionId: p.transactionId,
        ExternalTransactionId:
          code === '0000' ? String(10_000_000_000 + Number.parseInt(p.transactionId.slice(0, 8), 16)) : '',
        AmountCharged: amount,
        OrderId: p.transactionId,
        PaymentDate: p.requestedAt,
      },
    });
  };

  const plannedCallbacks = (key: string) => {
    const p = paymentFor(key);
    if (!p || p.truth === 'refused' || p.behaviour.drop) return [];
    const final = callbackBody(p, p.truth === 'success' ? '0000' : '2001');
    const bodies = [final, ...Array.from({ length: p.behaviour.duplicates }, () => final)];
    if (p.behaviour.reorder) bodies.push(callbackBody(p, '0005'));
    return bodies.map((body) => ({ url: p.callbackUrl, body, headers: signatureHeaders(body) }));
  };

  const signatureHeaders = (body: string): Record<string, string> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.callbackSecret)
      headers['x-provider-signature'] =
        `sha256=${createHmac('sha256', options.callbackSecret).update(body).digest('hex')}`;
    return headers;
  };

  const sendCallbacks = async (p: SimulatedPayment) => {
    sending += 1;
    try {
      await sendEach(p);
    } finally {
      sending -= 1;
    }
  };

  const sendEach = async (p: SimulatedPayment) => {
    for (const callback of plannedCallbacks(p.reference)) {
      const code = (JSON.parse(callback.body) as { ResponseCode: string }).ResponseCode;
      try {
        const response = await fetch(callback.url, {
          method: 'POST',
          headers: callback.headers,
          body: callback.body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.body?.cancel();
        p.callbacks.push({ at: new Date().toISOString(), responseCode: code, httpStatus: response.status });
      } catch (error) {
        p.callbacks.push({
          at: new Date().toISOString(),
          responseCode: code,
          httpStatus: null,
          error: (error as Error).message,
        });
      }
      log(`callback ${p.reference} ${code} -> ${p.callbacks.at(-1)?.httpStatus ?? p.callbacks.at(-1)?.error}`);
    }
  };

  const authorised = (req: IncomingMessage) => {
    if (!options.clientId) return true;
    const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret ?? ''}`).toString('base64')}`;
    return req.headers.authorization === expected;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method === 'PUT' && parts[0] === '_simulator' && parts[1] === 'behaviour') {
      defaults = { ...defaults, ...(JSON.parse(body || '{}') as Partial<Behaviour>) };
      return send(res, 200, defaults);
    }
    if (req.method === 'PUT' && parts[0] === '_simulator' && parts[1] === 'references' && parts[2]) {
      overrides.set(parts[2], JSON.parse(body || '{}') as Partial<Behaviour>);
      return send(res, 200, { reference: parts[2], behaviour: { ...defaults, ...overrides.get(parts[2]) } });
    }
    if (req.method === 'GET' && parts[0] === '_simulator' && parts[1] === 'transactions')
      return send(res, 200, [...payments.values()]);
    if (!authorised(req)) return send(res, 401, { Message: 'Unauthorized', ResponseCode: '4101' });

    if (
      req.method === 'POST' &&
      parts.length === 5 &&
      parts[0] === 'merchantaccount' &&
      parts[1] === 'merchants' &&
      parts[3] === 'receive' &&
      parts[4] === 'mobilemoney'
    ) {
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return send(res, 400, { Message: 'Invalid JSON', ResponseCode: '4000' });
      }
      const problem = invalidRequest(input);
      if (problem) return send(res, 400, { Message: problem, ResponseCode: '4000' });
      const reference = input.ClientReference as string;
      const amount = input.Amount as number;
      const callbackUrl = (input.PrimaryCallbackUrl ?? input.PrimaryCallbackURL) as string;
      let payment = payments.get(reference);
      if (!payment) {
        const behaviour = { ...defaults, ...overrides.get(reference), ...overrides.get(String(input.Description)) };
        payment = {
          reference,
          transactionId: randomBytes(16).toString('hex'),
          amount,
          description: String(input.Description ?? ''),
          callbackUrl,
          behaviour,
          truth: behaviour.refuse ? 'refused' : behaviour.outcome,
          requestedAt: new Date().toISOString(),
          callbacks: [],
        };
        payments.set(reference, payment);
        if (!behaviour.refuse && !options.manualCallbacks) {
          const created = payment;
          const timer = setTimeout(() => {
            timers.delete(timer);
            void sendCallbacks(created);
          }, behaviour.delayMs);
          timers.add(timer);
        }
      }
      if (payment.truth === 'refused')
        return send(res, 400, {
          Message: 'The customer wallet could not be debited',
          ResponseCode: '2001',
          Data: { ClientReference: reference },
        });
      const charges = Math.round(payment.amount) / 100;
      return send(res, 200, {
        Message: 'Transaction pending. Expect callback request for final state',
        ResponseCode: '0001',
        Data: {
          TransactionId: payment.transactionId,
          Description: payment.description,
          ClientReference: reference,
          Amount: payment.amount,
          Charges: charges,
          AmountAfterCharges: Math.round((payment.amount - charges) * 100) / 100,
          AmountCharged: payment.amount,
          DeliveryFee: 0,
        },
      });
    }

    if (req.method === 'GET' && parts.length === 3 && parts[0] === 'transactions' && parts[2] === 'status') {
      const payment = payments.get(url.searchParams.get('clientReference') ?? '');
      if (!payment) return send(res, 404, { message: 'Transaction not found', responseCode: '4040' });
      const amount = payment.behaviour.wrongAmount ? payment.amount + 1 : payment.amount;
      // The fields of the documented answer; a payment that was not made is Unpaid.
      return send(res, 200, {
        message: 'Successful',
        responseCode: '0000',
        data: {
          date: payment.requestedAt,
          status: payment.truth === 'success' ? 'Paid' : 'Unpaid',
          transactionId: payment.transactionId,
          externalTransactionId: payment.truth === 'success' ? `ext-${payment.transactionId.slice(0, 10)}` : null,
          paymentMethod: 'mobilemoney',
          clientReference: payment.reference,
          currencyCode: null,
          amount,
          charges: Math.round(amount) / 100,
          amountAfterCharges: Math.round((amount - Math.round(amount) / 100) * 100) / 100,
          isFulfilled: null,
        },
      });
    }
    return send(res, 404, { message: `No route ${req.method} ${url.pathname}` });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: Error) =>
        send(res, 500, { message: error.message }),
      );
    });
  });
  // A taken port rejects (the caller says which setting moves it) instead of crashing on an unhandled 'error' event.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    server,
    payments,
    setBehaviour(behaviour, key) {
      if (key) overrides.set(key, behaviour);
      else defaults = { ...defaults, ...behaviour };
    },
    paymentFor,
    plannedCallbacks,
    async idle() {
      while (timers.size > 0 || sending > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const CHANNELS = ['mtn-gh', 'vodafone-gh', 'tigo-gh'];

/** The request checks of "Direct Receive Money" (mandatory fields and their formats); undefined when it passes. */
function invalidRequest(input: Record<string, unknown>): string | undefined {
  const reference = input.ClientReference;
  if (typeof reference !== 'string' || !/^[A-Za-z0-9]{1,36}$/.test(reference))
    return 'ClientReference is mandatory: alphanumeric, at most 36 characters';
  if (typeof input.CustomerMsisdn !== 'string' || !/^233\d{9}$/.test(input.CustomerMsisdn))
    return 'CustomerMsisdn is mandatory, in international format such as 233249111411';
  if (typeof input.Channel !== 'string' || !CHANNELS.includes(input.Channel))
    return `Channel is mandatory: one of ${CHANNELS.join(', ')}`;
  const amount = input.Amount;
  if (typeof amount !== 'number' || !(amount > 0) || Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6)
    return 'Amount is mandatory: more than zero, at most two decimal places';
  const callbackUrl = input.PrimaryCallbackUrl ?? input.PrimaryCallbackURL;
  if (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl)) return 'PrimaryCallbackUrl is mandatory';
  if (typeof input.Description !== 'string' || input.Description === '') return 'Description is mandatory';
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

import type {
  CallbackPayload,
  DataStores,
  PaymentProvider,
  PaymentRequest,
  RequestInfo,
  StatusCheckResult,
} from '@transport/domain';
import { FixedClock, InMemoryUnitOfWork, SeededRandomSource, SequentialIdGenerator } from '@transport/domain/testing';
import { createHmac } from 'node:crypto';
import type { AppConfig } from '../config';
import type { EventLog, JobWorkers, WebhookSender } from '../core/ports';
import { CountingRateLimits, InMemoryMerchants, RecordingEvents } from '../core/testing/fixtures';
import { MerchantNotificationsService } from './merchant-notifications.service';
import { MerchantViewsService } from './merchant-views.service';
import { PaymentCallbacksService } from './payment-callbacks.service';
import { PaymentReconciliationService } from './payment-reconciliation.service';
import { PaymentRequestsService } from './payment-requests.service';
import { PaymentWorkers } from './payment-workers';
import type { PaymentSettings } from './payment-settings';
import { TransactionProgress } from './transaction-progress';

// What the payment services' specs share: the fakes of the provider and the merchants' endpoints, the five services
// built on them, and the requests and callbacks the specs send.

export const MERCHANT = '65a1b2c3d4e5f60718293a4b';
export const OTHER_MERCHANT = '65a1b2c3d4e5f60718293a4c';
/** The first transaction of a setup (a fresh id generator each time): its id is its ClientReference at the provider. */
export const TX1 = new SequentialIdGenerator().next();
export const PROVIDER_SECRET = 'provider-secret';
export const ADDRESS = '203.0.113.7';
export const SECRET = `whsec_${Buffer.from('a test signing secret of 32 bytes').toString('base64')}`;

/** The provider as the service sees it: answers requests with 0001 and status checks as told. */
export class FakeProvider implements PaymentProvider {
  readonly requests: PaymentRequest[] = [];
  requestAnswer: RequestInfo = {
    Message: 'Transaction pending',
    ResponseCode: '0001',
    Data: { TransactionId: 'tx-1' },
  };
  status: StatusCheckResult = { state: 'pending', raw: {} };
  failRequests = false;
  async requestPayment(request: PaymentRequest): Promise<RequestInfo> {
    if (this.failRequests) throw new Error('provider unreachable');
    this.requests.push(request);
    return this.requestAnswer;
  }
  async checkStatus(): Promise<StatusCheckResult> {
    return this.status;
  }
}

export class FakeWebhooks implements WebhookSender {
  readonly sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  answers: Array<number | Error> = [];
  async send(url: string, headers: Record<string, string>, body: string): Promise<number> {
    this.sent.push({ url, headers, body });
    const answer = this.answers.shift() ?? 200;
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

/** The payment services on fakes, configured by name: `settings` over the defaults, `limits` by limit name. */
export function paymentsOnFakes(
  options: { settings?: Partial<PaymentSettings>; limits?: Record<string, number> } = {},
) {
  const settings = options.settings ?? {};
  const uow = new InMemoryUnitOfWork();
  const rateLimits = new CountingRateLimits(options.limits);
  const merchants = new InMemoryMerchants();
  const clock = new FixedClock(new Date('2026-11-22T10:00:00Z'));
  const provider = new FakeProvider();
  const webhooks = new FakeWebhooks();
  const events = new RecordingEvents();
  const refusedUrls: string[] = [];
  const ids = new SequentialIdGenerator();
  const configured: PaymentSettings = {
    callbackBase: 'https://pay.example.com',
    reconcileAfterSeconds: 300,
    callbackSecret: PROVIDER_SECRET,
    tokenGraceHours: 168,
    maxCallbacksPerTransaction: 20,
    deadLetterRetentionDays: 7,
    notifyPauseAfterHours: 12,
    backstopAfterMinutes: 30,
    unpaidFinalAfterSeconds: 900,
    ...settings,
  };
  const checkCallbackUrl = (url: string) => {
    if (url.includes('internal')) {
      refusedUrls.push(url);
      throw new Error('refused');
    }
  };
  const progress = new TransactionProgress(clock, ids, configured);
  const services = {
    requests: new PaymentRequestsService(
      uow,
      uow.stores,
      provider,
      clock,
      ids,
      new SeededRandomSource(7),
      checkCallbackUrl,
      events,
      rateLimits,
      configured,
      progress,
    ),
    callbacks: new PaymentCallbacksService(uow, uow.stores, clock, events, rateLimits, configured, progress),
    reconciliation: new PaymentReconciliationService(uow, uow.stores, provider, clock, events, configured, progress),
    notifications: new MerchantNotificationsService(uow, uow.stores, clock, webhooks, events, merchants, configured),
    views: new MerchantViewsService(uow.stores),
  };
  return { uow, clock, provider, webhooks, events, refusedUrls, rateLimits, merchants, settings, ...services };
}

export type PaymentsOnFakes = ReturnType<typeof paymentsOnFakes>;

/** The payment pipeline's background work on fakes, each dependency given by name. */
export function paymentWorkersOnFakes(p: {
  notifications: MerchantNotificationsService;
  reconciliation: PaymentReconciliationService;
  callbacks: PaymentCallbacksService;
  workers: JobWorkers;
  stores: DataStores;
  events: EventLog;
  config: AppConfig;
}): PaymentWorkers {
  return new PaymentWorkers(p.notifications, p.reconciliation, p.callbacks, p.workers, p.stores, p.events, p.config);
}

/** Posts a callback as the provider does: signed when the service expects signatures. */
export function post(ctx: PaymentsOnFakes, token: string, payload: unknown, headers: Record<string, string> = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const secret = 'callbackSecret' in ctx.settings ? ctx.settings.callbackSecret : PROVIDER_SECRET;
  const signed = secret
    ? { ...headers, 'x-provider-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }
    : headers;
  return ctx.callbacks.receiveCallback(token, body, signed, ADDRESS);
}

export const later = (ctx: PaymentsOnFakes, ms: number) => ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));

export const request = (reference = 'REF-1', amount = 25_500_000) => ({
  merchantId: MERCHANT,
  amount,
  description: 'Trip payment',
  reference,
  callBackUrl: 'https://merchant.example.com/hook',
  customerPhone: '0244987654',
  requestType: 'mobile_money',
});
export const merchant = { role: 'merchant' as const, id: MERCHANT };

export const callback = (code: string, amount = 25.5, reference = TX1): CallbackPayload => ({
  ResponseCode: code,
  Message: code === '0000' ? 'success' : 'failed',
  Data: {
    Amount: amount,
    Charges: 0,
    AmountAfterCharges: amount,
    AmountCharged: amount,
    Description: '',
    ClientReference: reference,
    TransactionId: 'tx-1',
    ExternalTransactionId: 'ext-1',
    OrderId: 'order-1',
  },
});

/** Requests a payment and returns the callback token the provider was given. */
export async function requested(ctx: PaymentsOnFakes, reference = 'REF-1') {
  const { transaction } = await ctx.requests.request(request(reference), merchant);
  const asked = ctx.provider.requests.at(-1);
  if (!asked) throw new Error('the provider was asked for no payment');
  const url = asked.providerCallbackUrl;
  return { transaction, token: url.slice(url.lastIndexOf('/') + 1) };
}

export const attempt = (retryCount = 0, retryLimit = 5) => ({ retryCount, retryLimit });

/** A settled transaction whose notification is waiting, its merchant's signing secret known; answers its id. */
export async function finished(ctx: PaymentsOnFakes) {
  const { transaction, token } = await requested(ctx);
  await post(ctx, token, callback('0000'));
  const notification = ctx.uow.notifications.all[0];
  ctx.uow.notifications.setMerchant(transaction.id, {
    reference: 'REF-1',
    merchantId: MERCHANT,
    signingSecrets: [SECRET],
  });
  return notification.id;
}

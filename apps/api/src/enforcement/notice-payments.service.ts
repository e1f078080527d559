import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  mobileMoneyChannel,
  normalizePhone,
  type Clock,
  type DataStores,
  type IdGenerator,
  type Notice,
  type NoticePaymentRecord,
  type RandomSource,
  type SecretHasher,
  type Transaction,
  type UnitOfWork,
} from '@transport/domain';
import type { AppConfig } from '../config';
import type { AssemblyMerchants, EnforcementStore, EventLog, MessageSender, RateLimits } from '../core/ports';
import { randomToken, sha256Hex } from '../core/platform/secrets';
import {
  APP_CONFIG,
  ASSEMBLY_MERCHANTS,
  CLOCK,
  ENFORCEMENT_STORE,
  EVENT_LOG,
  ID_GENERATOR,
  MESSAGE_SENDER,
  RANDOM_SOURCE,
  RATE_LIMITS,
  SECRET_HASHER,
  STORES,
  UNIT_OF_WORK,
} from '../core/tokens';
import { receiptText } from '../i18n/sms-texts';
import { PaymentRequestsService } from '../payments/payment-requests.service';
import { noticeOfToken } from './notice-links';
import { cedis } from './notice-page';
import { paySection } from './notice-pay-page';

/** A notice's payment as the public page tells it: the number it prompts (only its last digits are shown). */
export interface NoticePaymentView {
  transactionId: string;
  status: Transaction['status'];
  phone: string;
  amount: number;
  at: Date;
}

/** What asking to pay did: a new prompt, or the one still open (no second prompt while one is). */
export type PayOutcome = { kind: 'prompted' | 'open'; payment: NoticePaymentView; notice: Notice };

/**
 * Paying a notice by mobile money from its public page (issue 47): the intent-first payment flow with the assembly as
 * merchant, one open prompt per notice at a time, limits per notice, per phone and per address, and the receipt SMS
 * once the payment settled the notice (docs/enforcement.md).
 */
@Injectable()
export class NoticePaymentsService {
  constructor(
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(ASSEMBLY_MERCHANTS) private readonly merchants: AssemblyMerchants,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(RANDOM_SOURCE) private readonly random: RandomSource,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'timeZone' | 'publicBaseUrl'>,
    private readonly payments: PaymentRequestsService,
  ) {}

  /** The notice a page token names; anything else is NOT_FOUND, as a notice that does not exist. */
  async noticeOf(token: string): Promise<Notice> {
    const id = noticeOfToken(this.hasher, token);
    const notice = id ? await this.enforcement.findNotice(id) : undefined;
    if (!notice) throw CommonErrors.notFound('notice', 'of this link');
    return notice;
  }

  /** The notice's payment still waiting for the provider's word, if any (what its page shows). */
  async openPayment(noticeId: string): Promise<NoticePaymentView | undefined> {
    const open = await this.uow.run((ctx) => ctx.notices.openPayment(noticeId));
    return open && this.view(open);
  }

  /** The page's "How to pay" part for a token; undefined when the token names no notice (the page is a 404). */
  async paySection(token: string): Promise<string | undefined> {
    const id = noticeOfToken(this.hasher, token);
    const notice = id ? await this.enforcement.findNotice(id) : undefined;
    if (!notice) return undefined;
    const open = await this.openPayment(notice.id);
    return paySection(notice.toState(), token, notice.amountDue(this.clock.now()), open, this.config.timeZone);
  }

  /**
   * Asks the owner's phone to approve paying what the notice owes now (the surcharge included once overdue). Refused
   * before any prompt: a notice paid, cancelled or contested; a number that is not a Ghanaian mobile-money one; past
   * the limits per notice, per phone and per client address. While a payment of the notice is open, that one is
   * answered and nobody is prompted again.
   */
  async pay(token: string, phoneInput: unknown, address: string): Promise<PayOutcome> {
    const notice = await this.noticeOf(token);
    // Paid, cancelled or contested: refused before anything else (no prompt, no limit used).
    notice.assertPayable();
    const open = await this.openPayment(notice.id);
    if (open) return { kind: 'open', payment: open, notice };
    const phone = mobileMoneyNumber(phoneInput);
    // Every limit is checked before any is counted: a prompt refused by one uses none of the others.
    const limits: Array<[string, string]> = [
      ['notice-pay-notice', notice.id],
      ['notice-pay-phone', sha256Hex(`notice-pay:${phone}`)],
      ['notice-pay-address', address],
    ];
    for (const [limit, key] of limits) await this.limits.assertAvailable(limit, key);
    for (const [limit, key] of limits) await this.limits.consume(limit, key);
    const s = notice.toState();
    const assembly = (await this.stores.assemblies.findById(s.assemblyId))?.toState().name ?? 'Assembly';
    const now = this.clock.now();
    const merchantId = await this.merchants.merchantOf(
      { id: s.assemblyId, name: assembly },
      { id: this.ids.next(), signingSecret: `whsec_${randomToken(32, this.random)}`, at: now },
    );
    // What is owed at the moment of the prompt (the surcharge included once overdue): the domain's amountDue.
    const amount = notice.amountDue(now);
    const number = s.id.slice(-8).toUpperCase();
    try {
      const { transaction } = await this.payments.request(
        {
          merchantId,
          amount: amount * 10_000,
          description: `Road traffic notice ${number}, ${assembly}`.slice(0, 200),
          // Unique per prompt: the one-open-payment rule is the notice's (notice_payments), not the reference's.
          reference: `notice.${s.id}.${this.ids.next()}`,
          // Never called: a notice payment settles its notice instead of notifying a merchant.
          callBackUrl: `${this.config.publicBaseUrl}/enforcement/notices/${s.id}`,
          customerPhone: phone,
          requestType: 'mobile_money',
        },
        { role: 'anonymous', id: `notice-page:${s.id}` },
        {
          noWebhook: true,
          withIntent: (ctx, t) =>
            ctx.notices.addPayment({ transactionId: t.id, noticeId: s.id, amount, createdAt: now }),
        },
      );
      this.events.info('notice.payment_prompted', { notice: s.id, transactionId: transaction.id, amount });
      return { kind: 'prompted', payment: this.viewOf(transaction, amount, now), notice };
    } catch (error) {
      // Two asked at once: the other's prompt is the open one.
      if ((error as { code?: string }).code !== 'NOTICE_PAYMENT_OPEN') throw error;
      const other = await this.openPayment(s.id);
      if (!other) throw error;
      return { kind: 'open', payment: other, notice };
    }
  }

  /**
   * The receipt SMS of a settled notice payment (the job queued with the settlement, run once it committed), to the
   * number that paid, in the language of the vehicle's owner or driver whose number it is (English otherwise), through
   * the guarded sender. At least once, as every job.
   */
  async sendReceipt(transactionId: string): Promise<void> {
    const [payment, transaction] = await Promise.all([
      this.uow.run((ctx) => ctx.notices.paymentFor(transactionId)),
      this.stores.transactions.findById(transactionId),
    ]);
    const notice = payment && (await this.enforcement.findNotice(payment.noticeId));
    if (!payment || !transaction || !notice || !payment.applied) return;
    const s = notice.toState();
    const t = transaction.toState();
    const [vehicle, assembly] = await Promise.all([
      this.stores.vehicles.findById(s.vehicleId),
      this.stores.assemblies.findById(s.assemblyId),
    ]);
    const owner = vehicle ? (await this.stores.owners.findById(vehicle.toState().ownerId))?.toState() : undefined;
    const driver = s.driverId ? (await this.stores.drivers.findById(s.driverId))?.toState() : undefined;
    const language = [owner, driver].find((p) => p?.phone === t.customerPhone)?.language;
    const now = this.clock.now();
    const text = receiptText(
      {
        assembly: assembly?.toState().name ?? 'the assembly',
        plate: vehicle?.toState().registrationNumber ?? '',
        notice: s.id.slice(-8).toUpperCase(),
        amount: cedis(payment.applied),
        remaining: cedis(notice.amountDue(now)),
        paid: s.status === 'paid',
        at: payment.settledAt ?? now,
        reference: t.providerTransactionId ?? t.id,
      },
      this.config.timeZone,
      language,
    );
    try {
      await this.messages.send({ to: t.customerPhone, text });
      this.events.info('notice_receipt_sms', { notice: s.id, transactionId, outcome: 'sent' });
    } catch {
      // The guarded sender refused it (country, hourly budget): logged; the payment and the notice stand.
      this.events.warn('notice_receipt_sms', { notice: s.id, transactionId, outcome: 'refused' });
    }
  }

  private async view(p: NoticePaymentRecord): Promise<NoticePaymentView> {
    const transaction = await this.stores.transactions.findById(p.transactionId);
    if (!transaction) throw CommonErrors.notFound('transaction', p.transactionId);
    return this.viewOf(transaction, p.amount, p.createdAt);
  }

  private viewOf(transaction: Transaction, amount: number, at: Date): NoticePaymentView {
    const t = transaction.toState();
    return { transactionId: t.id, status: t.status, phone: t.customerPhone, amount, at };
  }
}

/** A Ghanaian mobile-money number (MTN, Telecel or AirtelTigo), in any usual spelling; else 400 INVALID_PHONE. */
export function mobileMoneyNumber(input: unknown): string {
  const refused = () =>
    new DomainError(
      'INVALID_PHONE',
      'phone must be a Ghanaian mobile-money number (MTN, Telecel or AirtelTigo), such as 024 412 3456',
      'phone',
    );
  if (typeof input !== 'string' || input.length > 30) throw refused();
  let phone: string;
  try {
    phone = normalizePhone(input, 'phone');
  } catch {
    throw refused();
  }
  if (!mobileMoneyChannel(phone)) throw refused();
  return phone;
}

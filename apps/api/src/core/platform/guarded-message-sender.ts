import { isTextable, smsParts, textablePhone, type SmsParts } from '@transport/domain';
import { AppError } from '../errors';
import type { EventLog, MessageSender, RateLimits } from '../ports';

/** The shared rate limit (core/ports RateLimits) that holds the hourly budget of outgoing SMS. */
export const SMS_BUDGET_LIMIT = 'sms-budget';

/**
 * The last line of defence in front of whatever sends text messages (the SMS gateway, the outbox, a test's sender):
 * a number outside the country calling codes allowed is refused whoever asked (PHONE_NOT_ALLOWED, naming `phone`),
 * and past the hourly budget shared by every instance (counted in the database) nothing goes out: the message is
 * refused (SMS_BUDGET_EXHAUSTED, 503 with Retry-After), logged and counted
 * (`transport_events_total{event="sms",outcome="over_budget"}`, the SmsBudgetReached alert). The caller decides what
 * a refused message becomes (an activation answer saying the key was not sent, a reminder held until later). Each
 * message sent is counted in SMS parts (`transport_sms_parts_total{encoding}`), what the gateway bills.
 */
export class GuardedMessageSender implements MessageSender {
  constructor(
    private readonly inner: MessageSender,
    private readonly limits: RateLimits,
    private readonly events: EventLog,
    private readonly countryCodes: readonly string[],
    /** Told the parts of each message handed over (the metrics count them: they are what the gateway bills). */
    private readonly counted: (parts: SmsParts) => void = () => undefined,
  ) {}

  async send(message: { to: string; text: string }): Promise<void> {
    if (!isTextable(message.to, this.countryCodes)) {
      this.events.warn('sms', { outcome: 'refused_destination', country: countryOf(message.to) });
      textablePhone(message.to, this.countryCodes);
    }
    try {
      await this.limits.consume(SMS_BUDGET_LIMIT, 'all');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
      this.events.error('sms', { outcome: 'over_budget', retryAfter: error.extra.retryAfter });
      throw new AppError(
        'SMS_BUDGET_EXHAUSTED',
        'The hourly budget of text messages is used up: the message was not sent',
        { retryAfter: error.extra.retryAfter },
      );
    }
    await this.inner.send(message);
    const parts = smsParts(message.text);
    this.counted(parts);
    this.events.info('sms', { outcome: 'sent', parts: parts.parts, encoding: parts.encoding });
  }
}

/** The first digits of a number, enough to see where the traffic goes without logging whose number it is. */
const countryOf = (phone: string) => (typeof phone === 'string' ? phone.slice(0, 4) : '');

import { Logger } from '@nestjs/common';
import { inQuietHours, quietHoursEnd, type ActivationPolicy, type Clock, type FollowUps } from '@transport/domain';
import type { MessageSender, RateLimits, TextingPolicy } from '../core/ports';
import { activationText } from '../i18n/sms-texts';

export { activationText };

/** The queue of activation keys held by the quiet hours: one job per driver, run when they end. */
export const ACTIVATION_KEY_QUEUE = 'activation-key-send';

/** At most one activation key SMS to one number in ACTIVATION_SMS_WINDOW_MINUTES (a shared rate limit). */
const ACTIVATION_SMS_LIMIT = 'activation-sms-phone';

/**
 * How activation keys reach a phone (docs/security.md, "SMS: what it costs and who may be texted"): one per number per
 * window, counted in the database; held by the quiet hours unless the driver asked for it; every message through the
 * guarded sender (country codes, hourly budget).
 */
export class ActivationTexts {
  private readonly logger = new Logger('ActivationTexts');

  constructor(
    private readonly limits: RateLimits,
    private readonly messages: MessageSender,
    private readonly clock: Clock,
    private readonly texting: TextingPolicy,
    private readonly policy: ActivationPolicy,
  ) {}

  /** Seconds until the quiet hours end (0 outside them): how long a key not asked for by the driver waits. */
  heldFor(): number {
    const now = this.clock.now();
    if (!inQuietHours(now, this.texting)) return 0;
    return Math.max(1, Math.ceil((quietHoursEnd(now, this.texting).getTime() - now.getTime()) / 1000));
  }

  /** Queues the driver's held key (one job per driver, however often it is asked for) in the caller's transaction. */
  async hold(context: { followUps: FollowUps }, driverId: string, seconds: number): Promise<void> {
    await context.followUps.enqueue(
      ACTIVATION_KEY_QUEUE,
      { driverId },
      { startAfterSeconds: seconds, singletonKey: `activation-${driverId}` },
    );
  }

  /** Refuses (429 with Retry-After) when the number had its key of the window: checked before a key is replaced. */
  async assertWindowOpen(phone: string): Promise<void> {
    await this.limits.assertAvailable(ACTIVATION_SMS_LIMIT, phone);
  }

  /**
   * Takes the number's one activation SMS of the window, then sends; a message that did not go out (over the hourly
   * budget, refused by the gateway) gives the window back, so the key can be sent again.
   */
  async send(to: string, key: string, language: string): Promise<void> {
    await this.limits.consume(ACTIVATION_SMS_LIMIT, to);
    try {
      await this.messages.send(this.message(to, key, language));
    } catch (error) {
      await this.limits.reset(ACTIVATION_SMS_LIMIT, to);
      throw error;
    }
  }

  /**
   * The new driver's key, to their phone; whether it went. The driver is registered whatever happens here: when the
   * message cannot be handed over, the answer says so and an approver sends a new key (POST /drivers/:id/activation-key).
   */
  async trySend(to: string, key: string, language: string): Promise<boolean> {
    try {
      await this.send(to, key, language);
      return true;
    } catch (error) {
      this.logger.warn(`The activation key of a new driver was not sent: ${(error as Error).message}`);
      return false;
    }
  }

  /** The key's SMS in the driver's language (apps/api/src/i18n/sms). */
  private message(to: string, key: string, language: string) {
    return { to, text: activationText(key, Math.round(this.policy.keyLifetimeMs / 3_600_000), language) };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CommonErrors, type Actor, type Clock, type DataStores, type UnitOfWork } from '@transport/domain';
import { AppError } from '../core/errors';
import type { EventLog, MerchantRegistry, WebhookSender } from '../core/ports';
import { newSigningSecret } from '../core/platform/secrets';
import { CLOCK, EVENT_LOG, MERCHANTS, STORES, UNIT_OF_WORK, WEBHOOK_SENDER } from '../core/tokens';
import { describeFetchError } from './fetch-error';
import { SIGNATURE_HEADERS, signatureHeader } from './notification-signature';
import { PAYMENT_SETTINGS, QUEUES, RetryLater, type AttemptInfo, type PaymentSettings } from './payment-settings';

/**
 * Signed merchant notifications: each delivery attempt, the pause of a merchant whose endpoint keeps failing, the
 * operators' controls (redeliver, resume) and the rotation of a merchant's signing secret.
 */
@Injectable()
export class MerchantNotificationsService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SENDER) private readonly webhooks: WebhookSender,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(MERCHANTS) private readonly merchants: MerchantRegistry,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
  ) {}

  /**
   * One delivery attempt of a merchant notification: the stored body, signed with the merchant's secret (and, during
   * a rotation's overlap, its previous one). Every attempt is logged (time, status, latency). A 2xx answer delivers
   * it; anything else is retried with backoff (RetryLater) until the queue's retry window is spent, then it is failed.
   * A merchant whose endpoint has failed for longer than the pause threshold is paused and reported: its
   * notifications wait for an operator to resume them.
   */
  async deliverNotification(notificationId: string, attempt: AttemptInfo): Promise<void> {
    const notification = await this.stores.notifications.findForDelivery(notificationId);
    if (!notification || notification.status !== 'pending') return;
    if (notification.merchantPausedAt) {
      await this.stores.notifications.pause(notification.merchantId, notificationId, this.clock.now());
      return;
    }
    const started = this.clock.now();
    const t0 = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const timestamp = Math.floor(started.getTime() / 1000);
      statusCode = await this.webhooks.send(
        notification.url,
        {
          'content-type': 'application/json',
          'user-agent': 'transport-platform-notifier/1',
          'idempotency-key': notification.id,
          [SIGNATURE_HEADERS.id]: notification.id,
          [SIGNATURE_HEADERS.timestamp]: String(timestamp),
          [SIGNATURE_HEADERS.signature]: signatureHeader(
            notification.signingSecrets,
            notification.id,
            timestamp,
            notification.body,
          ),
        },
        notification.body,
      );
    } catch (caught) {
      error = describeFetchError(caught);
    }
    const latencyMs = Math.round(performance.now() - t0);
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const outcome = delivered ? 'delivered' : attempt.retryCount >= attempt.retryLimit ? 'failed' : 'retry';
    const number = notification.attempts + 1;
    const failingSince = await this.stores.notifications.recordAttempt(
      {
        notificationId,
        attempt: number,
        at: started,
        statusCode,
        latencyMs,
        error: error ?? (delivered ? null : `HTTP ${statusCode}`),
        outcome,
      },
      delivered ? this.clock.now() : null,
      notification.merchantId,
    );
    this.events.info('payment.notification', {
      notificationId,
      reference: notification.reference,
      attempt: number,
      outcome,
      statusCode,
      latencyMs,
      error,
    });
    if (outcome !== 'retry') return;
    const failingFor = failingSince ? started.getTime() - failingSince.getTime() : 0;
    if (failingFor >= this.settings.notifyPauseAfterHours * 3_600_000) {
      if (await this.stores.notifications.pause(notification.merchantId, notificationId, this.clock.now())) {
        this.events.error('payment.notifications_paused', {
          merchantId: notification.merchantId,
          failingSince: failingSince?.toISOString(),
          url: notification.url,
        });
      }
      return;
    }
    throw new RetryLater(`notification ${notificationId}: ${error ?? `HTTP ${statusCode}`}`);
  }

  /** An operator sends a failed or paused notification again (a new delivery run, audited). */
  async redeliver(notificationId: string, actor: Actor): Promise<void> {
    await this.uow.run(async (ctx) => {
      const found = await ctx.notifications.redeliver(notificationId);
      if (!found) {
        throw new AppError(
          'NOTIFICATION_NOT_REDELIVERABLE',
          `No failed or paused notification ${notificationId}: it is unknown, still being delivered, or delivered`,
        );
      }
      await ctx.audit.append([
        operatorEntry('notification', notificationId, 'NotificationRedelivered', actor, this.clock.now()),
      ]);
      await ctx.followUps.enqueue(QUEUES.notify, { notificationId }, { group: found.merchantId });
    });
  }

  /** An operator lifts a merchant's notification pause; its paused notifications are delivered again. */
  async resumeNotifications(merchantId: string, actor: Actor): Promise<{ resumed: number }> {
    if (!(await this.merchants.exists(merchantId))) throw CommonErrors.notFound('merchant', merchantId);
    return this.uow.run(async (ctx) => {
      const ids = await ctx.notifications.resume(merchantId);
      await ctx.audit.append([
        operatorEntry('merchant', merchantId, 'MerchantNotificationsResumed', actor, this.clock.now(), {
          resumed: ids.length,
        }),
      ]);
      for (const notificationId of ids) {
        await ctx.followUps.enqueue(QUEUES.notify, { notificationId }, { group: merchantId });
      }
      return { resumed: ids.length };
    });
  }

  /**
   * A merchant replaces its signing secret; the old one keeps signing beside the new one for `overlapHours`, so the
   * merchant can switch its verifier without missing a delivery. The new secret is shown this once.
   */
  async rotateSigningSecret(
    merchantId: string,
    overlapHours: number,
    actor: Actor,
  ): Promise<{ signingSecret: string; previousSecretValidUntil: string }> {
    const now = this.clock.now();
    const previousUntil = new Date(now.getTime() + overlapHours * 3_600_000);
    const signingSecret = newSigningSecret();
    const done = await this.merchants.rotateSigningSecret(
      { id: merchantId, signingSecret, previousUntil, at: now },
      { actor },
    );
    if (!done) throw CommonErrors.notFound('merchant', merchantId);
    return { signingSecret, previousSecretValidUntil: previousUntil.toISOString() };
  }
}

/** An audit entry for an operator's action on the payment pipeline. */
function operatorEntry(
  entity: string,
  entityId: string,
  action: string,
  actor: Actor,
  at: Date,
  after: Record<string, unknown> | null = null,
) {
  return { entity, entityId, action, actor, before: null, after, at };
}

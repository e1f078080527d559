import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Clock } from '@transport/domain';
import type { PrismaClient } from '../generated/prisma/client';
import { logEvent, RetryLater, type AttemptInfo } from '../application/payment-jobs';
import { isPrivateAddress } from './callback-url-policy';
import { describeFetchError } from './fetch-error';
import { SIGNATURE_HEADERS, signNotification } from './notification-signature';

export interface NotifierOptions {
  timeoutMs: number;
  /** Development mode or allowlisted hosts may resolve to private addresses. */
  allowPrivate: boolean;
  allowlist: ReadonlySet<string>;
}

/**
 * Delivers one merchant notification attempt: the stored body, signed with the merchant's secret, POSTed to the
 * callBackUrl with no redirects followed. Every attempt is logged (time, status, latency). A 2xx answer delivers it;
 * anything else is retried with backoff (RetryLater) until the queue's retry window is spent, then it is failed.
 */
export class MerchantNotifier {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly options: NotifierOptions,
  ) {}

  async deliver(notificationId: string, attempt: AttemptInfo): Promise<void> {
    const notification = await this.prisma.paymentNotification.findUnique({
      where: { id: notificationId },
      include: { transaction: { select: { reference: true, merchant: { select: { signingSecret: true } } } } },
    });
    if (!notification || notification.status !== 'pending') return;
    const started = this.clock.now();
    const t0 = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      await this.checkDestination(notification.url);
      const timestamp = Math.floor(started.getTime() / 1000);
      const response = await fetch(notification.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'transport-platform-notifier/1',
          'idempotency-key': notification.id,
          [SIGNATURE_HEADERS.id]: notification.id,
          [SIGNATURE_HEADERS.timestamp]: String(timestamp),
          [SIGNATURE_HEADERS.signature]: signNotification(notification.transaction.merchant.signingSecret, timestamp, notification.body),
        },
        body: notification.body,
      });
      statusCode = response.status;
      await response.body?.cancel();
    } catch (caught) {
      error = describeFetchError(caught);
    }
    const latencyMs = Math.round(performance.now() - t0);
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const last = attempt.retryCount >= attempt.retryLimit;
    const outcome = delivered ? 'delivered' : last ? 'failed' : 'retry';
    const number = notification.attempts + 1;
    await this.prisma.$transaction([
      this.prisma.paymentDeliveryAttempt.create({
        data: { notificationId, attempt: number, at: started, statusCode, latencyMs, error: error ?? (delivered ? null : `HTTP ${statusCode}`), outcome },
      }),
      this.prisma.paymentNotification.update({
        where: { id: notificationId },
        data: { attempts: number, lastAttemptAt: started, ...(outcome !== 'retry' ? { status: outcome } : {}), ...(delivered ? { deliveredAt: this.clock.now() } : {}) },
      }),
    ]);
    logEvent('payment.notification', { notificationId, reference: notification.transaction.reference, attempt: number, outcome, statusCode, latencyMs, error });
    if (outcome === 'retry') throw new RetryLater(`notification ${notificationId}: ${error ?? `HTTP ${statusCode}`}`);
  }

  /** Host names are resolved and checked here too, so a name pointing into our network is refused (SSRF). */
  private async checkDestination(raw: string): Promise<void> {
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.options.allowPrivate || this.options.allowlist.has(host)) return;
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    if (addresses.some(isPrivateAddress)) throw new Error(`refused: ${host} resolves to a private address`);
  }
}

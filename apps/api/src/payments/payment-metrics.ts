import type { PaymentMetricsSource } from '../core/ports';

const AGE_BUCKETS_SECONDS = [60, 300, 900, 3600, 86_400];

/**
 * Prometheus text exposition of the payment pipeline, from counts the database gives (so every instance reports the
 * same totals): callbacks by outcome, pending transactions by age, notification attempts and notifications.
 */
export async function renderPaymentMetrics(source: PaymentMetricsSource, now: Date): Promise<string> {
  const outcomes = await source.callbacksByOutcome();
  const pendingByAge = await Promise.all(
    [0, ...AGE_BUCKETS_SECONDS].map(
      async (bucket) => [bucket, await source.pendingOlderThan(new Date(now.getTime() - bucket * 1000))] as const,
    ),
  );
  const attempts = await source.attemptsByOutcome();
  const notifications = await source.notificationsByStatus();
  const lines = [
    '# HELP transport_payment_callbacks_total Provider callbacks received, by what applying them did.',
    '# TYPE transport_payment_callbacks_total counter',
  ];
  for (const outcome of ['applied', 'duplicate', 'deferred', 'anomaly', 'malformed', 'unprocessed']) {
    const count = outcomes.find((o) => (o.outcome ?? 'unprocessed') === outcome)?.count ?? 0;
    lines.push(`transport_payment_callbacks_total{outcome="${outcome}"} ${count}`);
  }
  lines.push(
    '# HELP transport_pending_transactions Open (requesting or pending) transactions, by age in seconds (cumulative buckets).',
    '# TYPE transport_pending_transactions gauge',
  );
  for (const [bucket, count] of pendingByAge)
    lines.push(`transport_pending_transactions{older_than_seconds="${bucket}"} ${count}`);
  lines.push(
    '# HELP transport_notification_attempts_total Merchant notification attempts: delivered (2xx), retry (will be retried), failed (gave up).',
    '# TYPE transport_notification_attempts_total counter',
  );
  for (const outcome of ['delivered', 'retry', 'failed']) {
    lines.push(
      `transport_notification_attempts_total{outcome="${outcome}"} ${attempts.find((a) => a.outcome === outcome)?.count ?? 0}`,
    );
  }
  lines.push('# HELP transport_notifications Merchant notifications by state.', '# TYPE transport_notifications gauge');
  for (const status of ['pending', 'delivered', 'failed']) {
    lines.push(
      `transport_notifications{status="${status}"} ${notifications.find((n) => n.status === status)?.count ?? 0}`,
    );
  }
  return lines.join('\n') + '\n';
}

import { Webhook } from 'standardwebhooks';
import { verifyNotification } from './notification-signature';
import { QUEUES, RetryLater } from './payment-settings';
import {
  attempt,
  callback,
  finished,
  later,
  MERCHANT,
  merchant,
  OTHER_MERCHANT,
  paymentsOnFakes,
  post,
  requested,
  SECRET,
} from './payments.testing';

describe('MerchantNotificationsService on fakes', () => {
  it('sends the stored body signed with the merchant secret, and records the delivery', async () => {
    const ctx = paymentsOnFakes();
    const id = await finished(ctx);
    await ctx.notifications.deliverNotification(id, attempt());
    const [sent] = ctx.webhooks.sent;
    expect(sent.url).toBe('https://merchant.example.com/hook');
    expect(sent.headers['idempotency-key']).toBe(id);
    expect(verifyNotification(SECRET, sent.headers, sent.body, ctx.clock.now().getTime())).toBe(true);
    expect(ctx.uow.notifications.all[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      attemptLog: [{ outcome: 'delivered', statusCode: 200 }],
    });
  });

  it('signs as Standard Webhooks: the standardwebhooks library verifies it, and a replay under another id or a changed body fails', async () => {
    const ctx = paymentsOnFakes();
    const id = await finished(ctx);
    await ctx.notifications.deliverNotification(id, attempt());
    const [sent] = ctx.webhooks.sent;
    jest.spyOn(Date, 'now').mockReturnValue(ctx.clock.now().getTime());
    try {
      const webhook = new Webhook(SECRET);
      expect(webhook.verify(sent.body, sent.headers)).toMatchObject({ reference: 'REF-1', status: 'success' });
      expect(sent.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(() => webhook.verify(sent.body, { ...sent.headers, 'webhook-id': 'another-id' })).toThrow(
        /No matching signature/,
      );
      expect(() => webhook.verify(sent.body.replace('success', 'failed'), sent.headers)).toThrow(
        /No matching signature/,
      );
      expect(() =>
        new Webhook(`whsec_${Buffer.from('someone else').toString('base64')}`).verify(sent.body, sent.headers),
      ).toThrow(/No matching signature/);
      expect(
        verifyNotification(
          SECRET,
          { ...sent.headers, 'webhook-id': 'another-id' },
          sent.body,
          ctx.clock.now().getTime(),
        ),
      ).toBe(false);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('retries a failing endpoint with the same id, then gives up after the last attempt', async () => {
    const ctx = paymentsOnFakes();
    const id = await finished(ctx);
    ctx.webhooks.answers = [503, new Error('connect ECONNREFUSED'), 500];
    await expect(ctx.notifications.deliverNotification(id, attempt(0, 2))).rejects.toBeInstanceOf(RetryLater);
    await expect(ctx.notifications.deliverNotification(id, attempt(1, 2))).rejects.toBeInstanceOf(RetryLater);
    await ctx.notifications.deliverNotification(id, attempt(2, 2));
    expect(ctx.webhooks.sent.map((s) => s.headers['idempotency-key'])).toEqual([id, id, id]);
    expect(ctx.uow.notifications.all[0]).toMatchObject({ status: 'failed', attempts: 3 });
    expect(ctx.uow.notifications.all[0].attemptLog.map((a) => [a.outcome, a.statusCode])).toEqual([
      ['retry', 503],
      ['retry', null],
      ['failed', 500],
    ]);
    await ctx.notifications.deliverNotification(id, attempt(3, 2));
    expect(ctx.webhooks.sent).toHaveLength(3);
  });

  it('signs with both secrets during a rotation overlap: a verifier with either one accepts the delivery', async () => {
    const ctx = paymentsOnFakes();
    const { transaction, token } = await requested(ctx);
    await post(ctx, token, callback('0000'));
    const NEW = `whsec_${Buffer.from('the new secret of the merchant!!').toString('base64')}`;
    ctx.uow.notifications.setMerchant(transaction.id, {
      reference: 'REF-1',
      merchantId: MERCHANT,
      signingSecrets: [NEW, SECRET],
    });
    await ctx.notifications.deliverNotification(ctx.uow.notifications.all[0].id, attempt());
    const [sent] = ctx.webhooks.sent;
    expect(sent.headers['webhook-signature'].split(' ')).toHaveLength(2);
    jest.spyOn(Date, 'now').mockReturnValue(ctx.clock.now().getTime());
    try {
      expect(new Webhook(NEW).verify(sent.body, sent.headers)).toMatchObject({ status: 'success' });
      expect(new Webhook(SECRET).verify(sent.body, sent.headers)).toMatchObject({ status: 'success' });
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('rotates a merchant secret with an overlap, shown once; an unknown merchant is NOT_FOUND', async () => {
    const ctx = paymentsOnFakes();
    await ctx.merchants.add(
      { id: MERCHANT, name: 'M', signingSecret: SECRET, at: ctx.clock.now() },
      { actor: merchant },
    );
    const rotated = await ctx.notifications.rotateSigningSecret(MERCHANT, 24, merchant);
    expect(rotated.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.previousSecretValidUntil).toBe('2026-11-23T10:00:00.000Z');
    expect(ctx.merchants.rows[0]).toMatchObject({
      signingSecret: rotated.signingSecret,
      previousSigningSecret: SECRET,
    });
    await expect(ctx.notifications.rotateSigningSecret(OTHER_MERCHANT, 24, merchant)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('pauses a merchant whose endpoint failed for hours, reports it once, and holds its notifications', async () => {
    const ctx = paymentsOnFakes({ settings: { notifyPauseAfterHours: 2 } });
    const id = await finished(ctx);
    ctx.webhooks.answers = [503, 503, 503];
    await expect(ctx.notifications.deliverNotification(id, attempt(0, 50))).rejects.toBeInstanceOf(RetryLater);
    later(ctx, 3 * 3_600_000);
    // Failing for three hours: this attempt pauses the merchant instead of asking for another retry.
    await ctx.notifications.deliverNotification(id, attempt(1, 50));
    expect(ctx.uow.notifications.all[0].status).toBe('paused');
    expect(ctx.events.lines.filter((l) => l.event === 'payment.notifications_paused')).toMatchObject([
      { level: 'error', fields: { merchantId: MERCHANT } },
    ]);
    await ctx.notifications.deliverNotification(id, attempt(2, 50));
    expect(ctx.webhooks.sent).toHaveLength(2);
  });

  it('lets an operator resume a paused merchant and redeliver a failed notification, each audited and queued in the merchant group', async () => {
    const ctx = paymentsOnFakes();
    const id = await finished(ctx);
    await ctx.uow.stores.notifications.pause(MERCHANT, id, ctx.clock.now());
    await ctx.merchants.add(
      { id: MERCHANT, name: 'M', signingSecret: SECRET, at: ctx.clock.now() },
      { actor: merchant },
    );
    ctx.uow.followUps.take(QUEUES.notify);
    const admin = { role: 'admin' as const, id: '65a0000000000000000000a0' };
    expect(await ctx.notifications.resumeNotifications(MERCHANT, admin)).toEqual({ resumed: 1 });
    expect(ctx.uow.followUps.take(QUEUES.notify)).toEqual([
      { queue: QUEUES.notify, data: { notificationId: id }, options: { group: MERCHANT } },
    ]);
    await expect(ctx.notifications.resumeNotifications(OTHER_MERCHANT, admin)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    ctx.webhooks.answers = [500];
    await ctx.notifications.deliverNotification(id, attempt(0, 0));
    expect(ctx.uow.notifications.all[0].status).toBe('failed');
    await ctx.notifications.redeliver(id, admin);
    expect(ctx.uow.notifications.all[0].status).toBe('pending');
    expect(ctx.uow.followUps.take(QUEUES.notify)).toHaveLength(1);
    await expect(ctx.notifications.redeliver(id, admin)).rejects.toMatchObject({
      code: 'NOTIFICATION_NOT_REDELIVERABLE',
    });
    expect(ctx.uow.audit.entries.filter((e) => e.actor.id === admin.id).map((e) => e.action)).toEqual([
      'MerchantNotificationsResumed',
      'NotificationRedelivered',
    ]);
  });
});

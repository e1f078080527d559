import { createHmac } from 'node:crypto';
import { validProviderSignature } from './payment-callbacks.service';
import { QUEUES } from './payment-settings';
import { ADDRESS, attempt, callback, later, MERCHANT, paymentsOnFakes, post, requested, TX1 } from './payments.testing';

describe('PaymentCallbacksService on fakes', () => {
  describe('receiveCallback', () => {
    it('stores the raw callback, applies 0000 once, and queues the signed notification', async () => {
      const ctx = paymentsOnFakes();
      const { transaction, token } = await requested(ctx);
      const result = await post(ctx, token, callback('0000'), {
        'content-type': 'application/json',
      });
      expect(result).toEqual({ outcome: 'applied' });
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
      expect(ctx.uow.callbacks.all).toMatchObject([
        { transactionId: transaction.id, outcome: 'applied', headers: { 'content-type': 'application/json' } },
      ]);
      expect(ctx.uow.notifications.all).toHaveLength(1);
      expect(JSON.parse(ctx.uow.notifications.all[0].body)).toMatchObject({
        _id: transaction.id,
        status: 'success',
        amount: 25.5,
      });
    });

    it('applies duplicates and late 0005s as duplicates: one final state, one audit entry, one notification', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      const outcomes = [];
      for (const body of [callback('0000'), callback('0000'), callback('0005')])
        outcomes.push((await post(ctx, token, body)).outcome);
      expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
      // Each callback is one counted event with its outcome (transport_events_total in the metrics).
      expect(ctx.events.lines.filter((l) => l.event === 'payment.callback').map((l) => l.fields.outcome)).toEqual([
        'applied',
        'duplicate',
        'duplicate',
      ]);
      expect(ctx.uow.audit.entries.filter((e) => e.action === 'TransactionSucceeded')).toHaveLength(1);
      expect(ctx.uow.notifications.all).toHaveLength(1);
      expect(ctx.uow.callbacks.all).toHaveLength(3);
    });

    it('defers on 0005 (state unknown) and asks the status API at once', async () => {
      const ctx = paymentsOnFakes();
      const { transaction, token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await post(ctx, token, callback('0005'))).outcome).toBe('deferred');
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: {} },
      ]);
    });

    it('keeps a wrong amount as an anomaly: status unchanged, no notification, a status check scheduled', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await post(ctx, token, callback('0000', 1))).outcome).toBe('anomaly');
      const stored = await ctx.views.ownTransaction(MERCHANT, 'REF-1');
      expect(stored.status).toBe('pending');
      expect(stored.toState().anomalies).toMatchObject([{ reason: 'amount_mismatch' }]);
      expect(ctx.uow.notifications.all).toEqual([]);
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
    });

    it('records a contradicting late callback as an anomaly and keeps the first final state', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      await post(ctx, token, callback('0000'));
      expect((await post(ctx, token, callback('2001'))).outcome).toBe('anomaly');
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });

    it('answers an unknown token NOT_FOUND, keeping the callback in the dead-letter table up to the per-address limit', async () => {
      const ctx = paymentsOnFakes({ limits: { 'callback-stray-address': 2 } });
      await requested(ctx);
      await expect(post(ctx, 'A'.repeat(43), callback('0000'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(post(ctx, 'bad token!', 'x'.repeat(100))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(post(ctx, 'B'.repeat(43), callback('0000'))).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      expect(ctx.uow.callbacks.all).toEqual([]);
      expect(ctx.rateLimits.used.get(`callback-stray-address:${ADDRESS}`)).toBe(3);
      expect(ctx.events.lines.map((l) => [l.level, l.event, l.fields.outcome])).toContainEqual([
        'warn',
        'payment.callback',
        'unknown_token',
      ]);
      expect(ctx.uow.callbacks.deadLettered.map((d) => [d.reason, d.transactionId, d.body])).toEqual([
        ['unknown_token', null, JSON.stringify(callback('0000'))],
        ['unknown_token', null, 'x'.repeat(100)],
      ]);
    });

    it('with a callback secret, keeps nothing at all for an unsigned callback, whatever its token', async () => {
      const ctx = paymentsOnFakes();
      await requested(ctx);
      await expect(
        ctx.callbacks.receiveCallback('A'.repeat(43), JSON.stringify(callback('0000')), {}, ADDRESS),
      ).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
      expect(ctx.uow.callbacks.deadLettered).toEqual([]);
      expect(ctx.rateLimits.used.size).toBe(2); // the payment request's two limits only
    });

    it('prunes dead letters older than the retention period', async () => {
      const ctx = paymentsOnFakes({ settings: { deadLetterRetentionDays: 7 } });
      const letter = (daysAgo: number) => ({
        receivedAt: new Date(ctx.clock.now().getTime() - daysAgo * 86_400_000),
        reason: 'unknown_token' as const,
        transactionId: null,
        headers: {},
        body: String(daysAgo),
      });
      for (const days of [8, 7.01, 6]) await ctx.uow.stores.callbacks.deadLetter(letter(days));
      expect(await ctx.callbacks.pruneDeadLetters()).toBe(2);
      expect(ctx.uow.callbacks.deadLettered.map((d) => d.body)).toEqual(['6']);
      expect(await ctx.callbacks.pruneDeadLetters()).toBe(0);
      expect(ctx.events.lines.filter((l) => l.event === 'payment.dead_letters_pruned')).toHaveLength(1);
    });

    it('expires a token a grace period after the final state: later callbacks are dead letters (410)', async () => {
      const ctx = paymentsOnFakes();
      const { transaction, token } = await requested(ctx);
      await post(ctx, token, callback('0000'));
      later(ctx, 167 * 3_600_000);
      expect((await post(ctx, token, callback('0000'))).outcome).toBe('duplicate');
      later(ctx, 2 * 3_600_000);
      await expect(post(ctx, token, callback('0000'))).rejects.toMatchObject({
        code: 'CALLBACK_TOKEN_EXPIRED',
        status: 410,
      });
      expect(ctx.uow.callbacks.deadLettered).toMatchObject([
        { reason: 'expired_token', transactionId: transaction.id },
      ]);
    });

    it('keeps at most the configured number of callbacks per transaction (429 past it, nothing stored)', async () => {
      const ctx = paymentsOnFakes({ settings: { maxCallbacksPerTransaction: 2 } });
      const { token } = await requested(ctx);
      await post(ctx, token, callback('0005'));
      await post(ctx, token, callback('0005'));
      await expect(post(ctx, token, callback('0000'))).rejects.toMatchObject({ code: 'TOO_MANY_CALLBACKS' });
      expect(ctx.uow.callbacks.all).toHaveLength(2);
    });

    it('without a provider secret, confirms a final callback with the status API: a forged 0000 never ends in success', async () => {
      const ctx = paymentsOnFakes({ settings: { callbackSecret: undefined } });
      const { transaction, token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await post(ctx, token, callback('0000'))).outcome).toBe('deferred');
      const waiting = await ctx.views.ownTransaction(MERCHANT, 'REF-1');
      expect(waiting.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
      // Kept in the inbox only until the provider's status API confirms it.
      expect(waiting.toState()).not.toHaveProperty('callBackInfo');
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: {} },
      ]);
      ctx.provider.status = { state: 'refunded', clientReference: TX1, transactionId: 'tx-1', raw: {} };
      await ctx.reconciliation.reconcile(transaction.id, attempt());
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).toState()).toMatchObject({ status: 'failed' });
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).toState()).not.toHaveProperty('callBackInfo');

      const genuine = paymentsOnFakes({ settings: { callbackSecret: undefined } });
      const g = await requested(genuine);
      await post(genuine, g.token, callback('0000'));
      genuine.provider.status = { state: 'paid', amount: 25.5, clientReference: TX1, transactionId: 'tx-1', raw: {} };
      await genuine.reconciliation.reconcile(g.transaction.id, attempt());
      expect((await genuine.views.ownTransaction(MERCHANT, 'REF-1')).toState()).toMatchObject({
        status: 'success',
        callBackInfo: callback('0000'),
      });
    });

    it('keeps audit entries small whatever a callback carries, and keeps every field the provider sent', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      const big = {
        ...callback('0000'),
        Data: { ...callback('0000').Data, PaymentDate: '2026-11-22', Note: 'n'.repeat(90_000) },
      };
      await post(ctx, token, big);
      const stored = (await ctx.views.ownTransaction(MERCHANT, 'REF-1')).toState();
      expect(stored.callBackInfo?.Data).toMatchObject({ PaymentDate: '2026-11-22' });
      for (const entry of ctx.uow.audit.entries) expect(JSON.stringify(entry).length).toBeLessThan(1000);
    });

    it('stores a body that is not a callback as malformed, then refuses it (INVALID_CALLBACK)', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      await expect(post(ctx, token, 'not json')).rejects.toMatchObject({
        code: 'INVALID_CALLBACK',
      });
      await expect(post(ctx, token, '{"ResponseCode":"0000"}')).rejects.toMatchObject({
        code: 'INVALID_CALLBACK',
      });
      expect(ctx.uow.callbacks.all.map((c) => c.outcome)).toEqual(['malformed', 'malformed']);
      expect(ctx.events.lines.filter((l) => l.event === 'payment.callback').map((l) => l.fields.outcome)).toEqual([
        'malformed',
        'malformed',
      ]);
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('pending');
    });

    it('with a callback secret, refuses a missing or wrong signature (INVALID_SIGNATURE) and stores nothing', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      const body = JSON.stringify(callback('0000'));
      await expect(ctx.callbacks.receiveCallback(token, body, {}, ADDRESS)).rejects.toMatchObject({
        code: 'INVALID_SIGNATURE',
        status: 401,
      });
      await expect(
        ctx.callbacks.receiveCallback(token, body, { 'x-provider-signature': 'sha256=00' }, ADDRESS),
      ).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
      expect(ctx.uow.callbacks.all).toEqual([]);
      const signature = `sha256=${createHmac('sha256', 'provider-secret').update(body).digest('hex')}`;
      expect(validProviderSignature('provider-secret', body, signature)).toBe(true);
      expect(await ctx.callbacks.receiveCallback(token, body, { 'x-provider-signature': signature }, ADDRESS)).toEqual({
        outcome: 'applied',
      });
    });

    it('rolls the whole change back when a write fails half-way (nothing applied, the inbox row stays unprocessed)', async () => {
      const ctx = paymentsOnFakes();
      const { token } = await requested(ctx);
      const auditBefore = ctx.uow.audit.entries.length;
      const append = ctx.uow.audit.append.bind(ctx.uow.audit);
      ctx.uow.audit.append = async () => {
        throw new Error('disk full');
      };
      await expect(post(ctx, token, callback('0000'))).rejects.toThrow('disk full');
      ctx.uow.audit.append = append;
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('pending');
      expect(ctx.uow.audit.entries).toHaveLength(auditBefore);
      expect(ctx.uow.notifications.all).toEqual([]);
      expect(ctx.uow.callbacks.all.map((c) => c.processedAt)).toEqual([null]);
      // The recovery sweep applies it later, once.
      expect(await ctx.callbacks.sweepStoredCallbacks(0)).toBe(1);
      expect(await ctx.callbacks.sweepStoredCallbacks(0)).toBe(0);
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
      expect(ctx.events.lines.filter((l) => l.event === 'payment.callback_recovered')).toHaveLength(1);
    });
  });

  describe('processStoredCallback', () => {
    it('applies a stored callback at most once, however often it is processed', async () => {
      const ctx = paymentsOnFakes();
      const { transaction } = await requested(ctx);
      const stored = await ctx.uow.stores.callbacks.store({
        transactionId: transaction.id,
        receivedAt: ctx.clock.now(),
        headers: {},
        body: JSON.stringify(callback('0000')),
      });
      expect(await ctx.callbacks.processStoredCallback(stored)).toBe('applied');
      expect(await ctx.callbacks.processStoredCallback(stored)).toBeUndefined();
      expect(ctx.uow.audit.entries.filter((e) => e.action === 'TransactionSucceeded')).toHaveLength(1);
    });

    it('reorders safely: a 0005 stored before the final callback but applied after it is a duplicate', async () => {
      const ctx = paymentsOnFakes();
      const { transaction } = await requested(ctx);
      const store = (code: string) =>
        ctx.uow.stores.callbacks.store({
          transactionId: transaction.id,
          receivedAt: ctx.clock.now(),
          headers: {},
          body: JSON.stringify(callback(code)),
        });
      const early = await store('0005');
      const final = await store('0000');
      expect(await ctx.callbacks.processStoredCallback(final)).toBe('applied');
      expect(await ctx.callbacks.processStoredCallback(early)).toBe('duplicate');
      expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });
  });
});

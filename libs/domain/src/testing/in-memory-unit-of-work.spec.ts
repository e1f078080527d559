import { auditEntriesFor, ANONYMOUS_ACTOR, SYSTEM_ACTOR } from '../application/audit-log';
import { T0, vehicleInput, ports } from './fixtures';
import { Vehicle } from '../vehicle/vehicle';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work';

const TX = '65a0000000000000000000f1';

describe('InMemoryUnitOfWork', () => {
  it('commits everything a change wrote: repositories, audit, inbox, tokens, outbox and jobs', async () => {
    const uow = new InMemoryUnitOfWork();
    const { ids } = ports();
    const vehicle = await uow.run(async (ctx) => {
      const saved = await ctx.vehicles.add(Vehicle.register(vehicleInput(), ids, T0));
      await ctx.audit.append(
        auditEntriesFor('vehicle', [{ type: 'VehicleRegistered', aggregateId: saved.id, at: T0 }], SYSTEM_ACTOR, null, {
          a: 1,
        }),
      );
      await ctx.callbackTokens.add('hash', TX, T0);
      const stored = await ctx.callbacks.store({ transactionId: TX, receivedAt: T0, headers: { a: 'b' }, body: '{}' });
      expect(await ctx.callbacks.claim(stored.id)).toBe(true);
      await ctx.callbacks.markProcessed(stored.id, 'applied', T0);
      await ctx.notifications.add({
        id: 'n1',
        transactionId: TX,
        url: 'https://m.example/h',
        body: '{}',
        createdAt: T0,
      });
      await ctx.followUps.enqueue('q', { id: 1 });
      return saved;
    });
    expect(await uow.stores.vehicles.findById(vehicle.id)).toBeDefined();
    expect(uow.audit.entries).toMatchObject([{ entity: 'vehicle', action: 'VehicleRegistered', actor: SYSTEM_ACTOR }]);
    expect(await uow.stores.callbackTokens.find('hash')).toEqual({ transactionId: TX, expiresAt: null });
    expect(await uow.stores.callbackTokens.find('other')).toBeUndefined();
    const later = new Date(T0.getTime() + 1000);
    await uow.stores.callbackTokens.expire(TX, T0);
    await uow.stores.callbackTokens.expire(TX, later);
    expect(await uow.stores.callbackTokens.find('hash')).toEqual({ transactionId: TX, expiresAt: T0 });
    expect(await uow.stores.callbacks.countFor(TX)).toBe(1);
    await uow.stores.callbacks.deadLetter({
      receivedAt: T0,
      reason: 'unknown_token',
      transactionId: null,
      headers: {},
      body: 'x',
    });
    expect(uow.callbacks.deadLettered).toMatchObject([{ reason: 'unknown_token', body: 'x' }]);
    expect(await uow.stores.callbacks.pruneDeadLetters(T0)).toBe(0);
    expect(await uow.stores.callbacks.pruneDeadLetters(new Date(T0.getTime() + 1))).toBe(1);
    expect(uow.callbacks.deadLettered).toEqual([]);
    expect(uow.callbacks.all).toMatchObject([{ outcome: 'applied', processedAt: T0 }]);
    expect(await uow.stores.callbacks.listDeferred(TX)).toEqual([]);
    await uow.stores.callbacks.markProcessed('1', 'deferred', T0);
    expect(await uow.stores.callbacks.listDeferred(TX)).toMatchObject([{ id: '1', transactionId: TX }]);
    await uow.stores.callbacks.markProcessed('1', 'applied', T0);
    expect(await uow.stores.callbacks.claim('1')).toBe(false);
    expect(await uow.stores.callbacks.claim('404')).toBe(false);
    expect(await uow.stores.callbacks.listUnprocessed(T0, 10)).toEqual([]);
    expect(await uow.stores.notifications.existsFor(TX)).toBe(true);
    expect(uow.followUps.jobs).toEqual([{ queue: 'q', data: { id: 1 }, options: {} }]);
  });

  it('rolls every store back when the change throws, and runs the next change normally', async () => {
    const uow = new InMemoryUnitOfWork();
    const { ids } = ports();
    await uow.stores.callbacks.store({ transactionId: TX, receivedAt: T0, headers: {}, body: 'kept' });
    const failing = uow.run(async (ctx) => {
      await ctx.vehicles.add(Vehicle.register(vehicleInput(), ids, T0));
      await ctx.audit.append(
        auditEntriesFor('vehicle', [{ type: 'X', aggregateId: TX, at: T0 }], ANONYMOUS_ACTOR, null, null),
      );
      await ctx.callbacks.markProcessed('1', 'applied', T0);
      await ctx.callbacks.deadLetter({
        receivedAt: T0,
        reason: 'unknown_token',
        transactionId: null,
        headers: {},
        body: '',
      });
      await ctx.callbackTokens.add('hash', TX, T0);
      await ctx.notifications.add({ id: 'n1', transactionId: TX, url: 'u', body: '{}', createdAt: T0 });
      await ctx.followUps.enqueue('q', {});
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect((await uow.stores.vehicles.list({}, { limit: 10 })).items).toEqual([]);
    expect(uow.audit.entries).toEqual([]);
    expect(await uow.stores.callbacks.listUnprocessed(T0, 10)).toMatchObject([{ id: '1', body: 'kept' }]);
    expect(await uow.stores.callbackTokens.find('hash')).toBeUndefined();
    expect(uow.notifications.all).toEqual([]);
    expect(uow.callbacks.deadLettered).toEqual([]);
    expect(uow.followUps.jobs).toEqual([]);
    await expect(uow.run(async () => 'next')).resolves.toBe('next');
  });

  it('runs changes one at a time, in order', async () => {
    const uow = new InMemoryUnitOfWork();
    const order: string[] = [];
    const slow = uow.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('first');
    });
    const fast = uow.run(async () => void order.push('second'));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['first', 'second']);
  });

  it('keeps the outbox: delivery details, attempts, final states and the record by transaction', async () => {
    const uow = new InMemoryUnitOfWork();
    const outbox = uow.stores.notifications;
    await outbox.add({ id: 'n1', transactionId: TX, url: 'https://m.example/h', body: '{"a":1}', createdAt: T0 });
    expect(await outbox.findForDelivery('n1')).toEqual({
      id: 'n1',
      url: 'https://m.example/h',
      body: '{"a":1}',
      status: 'pending',
      attempts: 0,
      reference: '',
      merchantId: '',
      signingSecrets: [],
      merchantPausedAt: null,
    });
    const M = '65a0000000000000000000f9';
    uow.notifications.setMerchant(TX, { reference: 'REF', merchantId: M, signingSecrets: ['s'] });
    expect(await outbox.findForDelivery('n1')).toMatchObject({ reference: 'REF', signingSecrets: ['s'] });
    expect(await outbox.findForDelivery('n2')).toBeUndefined();
    const attempt = {
      notificationId: 'n1',
      attempt: 1,
      at: T0,
      statusCode: 503,
      latencyMs: 5,
      error: 'HTTP 503',
      outcome: 'retry' as const,
    };
    expect(await outbox.recordAttempt(attempt, null, M)).toEqual(T0);
    expect(await outbox.findByTransaction(TX)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastAttemptAt: T0,
      deliveredAt: null,
      attemptLog: [attempt],
    });
    expect(
      await outbox.recordAttempt({ ...attempt, attempt: 2, statusCode: 200, error: null, outcome: 'delivered' }, T0, M),
    ).toBeNull();
    expect(await outbox.findByTransaction(TX)).toMatchObject({ status: 'delivered', attempts: 2, deliveredAt: T0 });
    expect(await outbox.recordAttempt({ ...attempt, notificationId: 'n2' }, null, M)).toBeNull();
    expect(await outbox.redeliver('n1')).toBeUndefined();
    expect(await outbox.redeliver('n2')).toBeUndefined();
    expect(await outbox.findByTransaction('65a0000000000000000000f2')).toBeUndefined();
    expect(await outbox.existsFor('65a0000000000000000000f2')).toBe(false);
  });

  it("pauses a merchant's notifications, redelivers a failed or paused one, and resumes the merchant", async () => {
    const uow = new InMemoryUnitOfWork();
    const outbox = uow.stores.notifications;
    const M = '65a0000000000000000000f9';
    const TX2 = '65a0000000000000000000f2';
    await outbox.add({ id: 'n1', transactionId: TX, url: 'u', body: '{}', createdAt: T0 });
    await outbox.add({ id: 'n2', transactionId: TX2, url: 'u', body: '{}', createdAt: T0 });
    uow.notifications.setMerchant(TX, { reference: 'A', merchantId: M, signingSecrets: ['s'] });
    uow.notifications.setMerchant(TX2, { reference: 'B', merchantId: M, signingSecrets: ['s'] });
    expect(await outbox.pause(M, 'n1', T0)).toBe(true);
    expect(await outbox.pause(M, 'n2', T0)).toBe(false);
    expect(await outbox.pause(M, 'n3', T0)).toBe(false);
    expect(await outbox.findForDelivery('n1')).toMatchObject({ status: 'paused', merchantPausedAt: T0 });
    expect(await outbox.redeliver('n1')).toEqual({ merchantId: M });
    expect(await outbox.resume(M)).toEqual(['n2']);
    expect(await outbox.findForDelivery('n2')).toMatchObject({ status: 'pending', merchantPausedAt: null });
    await outbox.add({ id: 'n3', transactionId: '65a0000000000000000000f3', url: 'u', body: '{}', createdAt: T0 });
    await outbox.recordAttempt(
      { notificationId: 'n3', attempt: 1, at: T0, statusCode: 500, latencyMs: 1, error: 'x', outcome: 'failed' },
      null,
      '',
    );
    expect(await outbox.redeliver('n3')).toEqual({ merchantId: '' });
    expect(await outbox.resume('nobody')).toEqual([]);
  });

  it('lists unprocessed callbacks received by a time, oldest first, up to a limit, and ignores unknown marks', async () => {
    const uow = new InMemoryUnitOfWork();
    const later = new Date(T0.getTime() + 1000);
    for (const at of [T0, T0, later])
      await uow.stores.callbacks.store({ transactionId: null, receivedAt: at, headers: {}, body: '' });
    await uow.stores.callbacks.markProcessed('404', 'malformed', T0);
    expect((await uow.stores.callbacks.listUnprocessed(T0, 1)).map((c) => c.id)).toEqual(['1']);
    expect((await uow.stores.callbacks.listUnprocessed(T0, 10)).map((c) => c.id)).toEqual(['1', '2']);
  });

  it('hands queued jobs of one queue to a test playing the worker', async () => {
    const uow = new InMemoryUnitOfWork();
    await uow.stores.followUps.enqueue('a', { n: 1 }, { startAfterSeconds: 5 });
    await uow.stores.followUps.enqueue('b', { n: 2 });
    expect(uow.followUps.take('a')).toEqual([{ queue: 'a', data: { n: 1 }, options: { startAfterSeconds: 5 } }]);
    expect(uow.followUps.jobs.map((j) => j.queue)).toEqual(['b']);
  });

  it('restores nested records (attempt logs, job data) as they were before a failed change', async () => {
    const uow = new InMemoryUnitOfWork();
    await uow.stores.notifications.add({ id: 'n1', transactionId: TX, url: 'u', body: '{}', createdAt: T0 });
    const attempt = {
      notificationId: 'n1',
      attempt: 1,
      at: T0,
      statusCode: 500,
      latencyMs: 1,
      error: 'HTTP 500',
      outcome: 'retry' as const,
    };
    await uow.stores.notifications.recordAttempt(attempt, null, 'm');
    await uow.stores.followUps.enqueue('q', { ids: ['a', 'b'] });
    await expect(
      uow.run(async (ctx) => {
        await ctx.notifications.recordAttempt({ ...attempt, attempt: 2, outcome: 'failed' }, null, 'm');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(uow.notifications.all[0]).toMatchObject({ status: 'pending', attempts: 1, attemptLog: [attempt] });
    expect(uow.followUps.jobs).toEqual([{ queue: 'q', data: { ids: ['a', 'b'] }, options: {} }]);
  });
});

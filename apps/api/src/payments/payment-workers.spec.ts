import { InMemoryUnitOfWork } from '@transport/domain/testing';
import { loadConfig } from '../config';
import type { JobDefinition, JobWorkers } from '../core/ports';
import { RecordingEvents } from '../core/testing/fixtures';
import type { MerchantNotificationsService } from './merchant-notifications.service';
import type { PaymentCallbacksService } from './payment-callbacks.service';
import type { PaymentReconciliationService } from './payment-reconciliation.service';
import { QUEUES, RetryLater } from './payment-settings';
import { paymentWorkersOnFakes } from './payments.testing';

class CapturingWorkers implements JobWorkers {
  running = false;
  queues: JobDefinition[] = [];
  async start(queues: JobDefinition[]) {
    this.queues = queues;
  }
  stop = async (): Promise<void> => undefined;
  depth = async () => [];
}

function setup(behaviour: (id: string) => Promise<void>) {
  const events = new RecordingEvents();
  const pruned: number[] = [];
  const reconciliation = {
    reconcile: behaviour,
    backstop: async () => 0,
  } as unknown as PaymentReconciliationService;
  const callbacks = { pruneDeadLetters: async () => pruned.push(1) } as unknown as PaymentCallbacksService;
  const notifications = {} as MerchantNotificationsService;
  const workers = new CapturingWorkers();
  const uow = new InMemoryUnitOfWork();
  const config = loadConfig({ JOB_WORKERS: 'false', NOTIFY_PER_MERCHANT: '3' });
  return {
    lines: events.lines,
    workers,
    pruned,
    subject: paymentWorkersOnFakes({
      notifications,
      reconciliation,
      callbacks,
      workers,
      stores: uow.stores,
      events,
      config,
    }),
  };
}

describe('PaymentWorkers', () => {
  it('declares per-merchant notification concurrency and the backstop on a schedule', async () => {
    const { workers, subject } = setup(async () => undefined);
    await subject.onApplicationBootstrap();
    const byName = new Map(workers.queues.map((q) => [q.name, q]));
    expect(byName.get(QUEUES.notify)?.groupConcurrency).toBe(3);
    expect(byName.get(QUEUES.backstop)?.cron).toBe('*/10 * * * *');
    await expect(
      byName.get(QUEUES.backstop)!.handle({} as never, { id: 'b', retryCount: 0, retryLimit: 2 }),
    ).resolves.toBeUndefined();
  });

  it('prunes dead letters hourly, once across all instances', async () => {
    const { workers, subject, pruned } = setup(async () => undefined);
    await subject.onApplicationBootstrap();
    const prune = workers.queues.find((q) => q.name === QUEUES.pruneDeadLetters)!;
    expect(prune.cron).toBe('23 * * * *');
    expect(prune.options).toMatchObject({ policy: 'stately' });
    await prune.handle({} as never, { id: 'p', retryCount: 0, retryLimit: 2 });
    expect(pruned).toHaveLength(1);
  });

  it('reports a job whose last attempt failed for an operator, and only warns about one that will be retried', async () => {
    const { workers, subject, lines } = setup(async () => {
      throw new Error('provider down');
    });
    await subject.onApplicationBootstrap();
    const reconcile = workers.queues.find((q) => q.name === QUEUES.reconcile)!;
    const data = { transactionId: '65a1b2c3d4e5f60718293a4b' } as never;
    await expect(reconcile.handle(data, { id: 'j1', retryCount: 0, retryLimit: 3 })).rejects.toThrow('provider down');
    await expect(reconcile.handle(data, { id: 'j1', retryCount: 3, retryLimit: 3 })).rejects.toThrow('provider down');
    expect(lines.map((l) => [l.level, l.event])).toEqual([
      ['warn', 'job.failed'],
      ['error', 'job.gave_up'],
    ]);
    expect(lines[1].fields).toMatchObject({
      queue: QUEUES.reconcile,
      data: { transactionId: '65a1b2c3d4e5f60718293a4b' },
    });
  });

  it('stays quiet about a job that only asks to be retried later', async () => {
    const { workers, subject, lines } = setup(async () => {
      throw new RetryLater('still pending');
    });
    await subject.onApplicationBootstrap();
    const reconcile = workers.queues.find((q) => q.name === QUEUES.reconcile)!;
    await expect(reconcile.handle({} as never, { id: 'j2', retryCount: 0, retryLimit: 3 })).rejects.toThrow(RetryLater);
    expect(lines).toEqual([]);
  });
});

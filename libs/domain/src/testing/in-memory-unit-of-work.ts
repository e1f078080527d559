import type { AuditEntryInput, AuditLog } from '../application/audit-log';
import type {
  CallbackInbox,
  CallbackOutcome,
  CallbackTokens,
  DeadLetter,
  DeliveryAttempt,
  FollowUpOptions,
  FollowUps,
  NewCallback,
  NewNotification,
  NotificationOutbox,
  NotificationRecord,
  NotificationToDeliver,
  StoredCallback,
} from '../application/payment-stores';
import type { DataStores, UnitOfWork, WorkContext } from '../application/unit-of-work';
import { Notice, type NoticeState } from '../enforcement/notice';
import {
  noticePaymentOpen,
  type NoticeLedger,
  type NoticePaymentRecord,
  type NoticeSettlement,
} from '../enforcement/notice-payment';
import { CommonErrors } from '../shared/common.errors';
import type { Repositories } from '../repositories';
import {
  InMemoryAssemblyRepository,
  InMemoryAssemblyUserRepository,
  InMemoryDriverRepository,
  InMemoryRegionRepository,
  InMemoryStationRepository,
  InMemoryTransactionRepository,
  InMemoryTransportUnionRepository,
  InMemoryTripRepository,
  InMemoryVehicleOwnerRepository,
  InMemoryVehicleRepository,
} from './in-memory-repositories';

/** A deep copy of plain records (objects, arrays, dates), so stored rows never share state with callers. */
function clone<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  return value;
}

/** Something an in-memory unit of work can roll back: it hands out a restore function for its current state. */
interface Restorable {
  checkpoint(): () => void;
}

/** A plain list of records whose state can be rolled back (arrays of copies, never shared with callers). */
class Rows<T> implements Restorable {
  items: T[] = [];
  checkpoint(): () => void {
    const copy = this.items.map((item) => clone(item));
    return () => {
      this.items = copy;
    };
  }
}

export class InMemoryAuditLog implements AuditLog, Restorable {
  private readonly rows = new Rows<AuditEntryInput>();
  get entries(): readonly AuditEntryInput[] {
    return this.rows.items;
  }
  async append(entries: readonly AuditEntryInput[]): Promise<void> {
    this.rows.items.push(...entries.map((e) => clone(e)));
  }
  checkpoint = () => this.rows.checkpoint();
}

interface InboxRow extends StoredCallback {
  headers: Record<string, string>;
  outcome: CallbackOutcome | null;
  processedAt: Date | null;
}

export class InMemoryCallbackInbox implements CallbackInbox, Restorable {
  private readonly rows = new Rows<InboxRow>();
  private readonly deadLetters = new Rows<DeadLetter>();
  get all(): readonly InboxRow[] {
    return this.rows.items;
  }
  get deadLettered(): readonly DeadLetter[] {
    return this.deadLetters.items;
  }
  async store(callback: NewCallback): Promise<StoredCallback> {
    const row: InboxRow = {
      ...clone(callback),
      id: String(this.rows.items.length + 1),
      outcome: null,
      processedAt: null,
    };
    this.rows.items.push(row);
    return { id: row.id, transactionId: row.transactionId, body: row.body, receivedAt: row.receivedAt };
  }
  async countFor(transactionId: string): Promise<number> {
    return this.rows.items.filter((r) => r.transactionId === transactionId).length;
  }
  async deadLetter(letter: DeadLetter): Promise<void> {
    this.deadLetters.items.push(clone(letter));
  }
  async pruneDeadLetters(receivedBefore: Date): Promise<number> {
    const before = this.deadLetters.items.length;
    this.deadLetters.items = this.deadLetters.items.filter((d) => d.receivedAt >= receivedBefore);
    return before - this.deadLetters.items.length;
  }
  async claim(id: string): Promise<boolean> {
    const row = this.rows.items.find((r) => r.id === id);
    return row !== undefined && row.processedAt === null;
  }
  async markProcessed(id: string, outcome: CallbackOutcome, at: Date): Promise<void> {
    const row = this.rows.items.find((r) => r.id === id);
    if (row) Object.assign(row, { outcome, processedAt: at });
  }
  async listDeferred(transactionId: string): Promise<StoredCallback[]> {
    return this.rows.items
      .filter((r) => r.transactionId === transactionId && r.outcome === 'deferred')
      .map((r) => ({ id: r.id, transactionId: r.transactionId, body: r.body, receivedAt: r.receivedAt }));
  }
  async listUnprocessed(receivedBy: Date, limit: number): Promise<StoredCallback[]> {
    return this.rows.items
      .filter((r) => r.processedAt === null && r.receivedAt <= receivedBy)
      .slice(0, limit)
      .map((r) => ({ id: r.id, transactionId: r.transactionId, body: r.body, receivedAt: r.receivedAt }));
  }
  checkpoint = () => {
    const restores = [this.rows.checkpoint(), this.deadLetters.checkpoint()];
    return () => restores.forEach((restore) => restore());
  };
}

export class InMemoryCallbackTokens implements CallbackTokens, Restorable {
  private readonly rows = new Rows<{ tokenHash: string; transactionId: string; at: Date; expiresAt: Date | null }>();
  async add(tokenHash: string, transactionId: string, at: Date): Promise<void> {
    this.rows.items.push({ tokenHash, transactionId, at, expiresAt: null });
  }
  async find(tokenHash: string): Promise<{ transactionId: string; expiresAt: Date | null } | undefined> {
    const row = this.rows.items.find((r) => r.tokenHash === tokenHash);
    return row && { transactionId: row.transactionId, expiresAt: row.expiresAt };
  }
  async expire(transactionId: string, at: Date): Promise<void> {
    for (const row of this.rows.items) if (row.transactionId === transactionId) row.expiresAt ??= at;
  }
  checkpoint = () => this.rows.checkpoint();
}

/** A transaction's merchant, as delivering its notification needs it. */
export interface MerchantOfTransaction {
  reference: string;
  merchantId: string;
  signingSecrets: string[];
}

interface NotificationRow extends NewNotification {
  status: NotificationRecord['status'];
  attempts: number;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  attemptLog: DeliveryAttempt[];
}

/**
 * The outbox in memory. Signing needs the merchant's secret and the transaction's reference: `merchantOf` gives
 * them for a transaction id (tests register merchants with `setMerchant`).
 */
export class InMemoryNotificationOutbox implements NotificationOutbox, Restorable {
  private readonly rows = new Rows<NotificationRow>();
  private readonly merchants = new Map<string, MerchantOfTransaction>();
  private readonly health = new Map<string, { failingSince: Date | null; pausedAt: Date | null }>();

  get all(): readonly NotificationRow[] {
    return this.rows.items;
  }
  /** What signing a transaction's notification needs (the merchant's secrets, the transaction's reference). */
  setMerchant(transactionId: string, details: MerchantOfTransaction): void {
    this.merchants.set(transactionId, details);
  }
  private healthOf(merchantId: string) {
    const current = this.health.get(merchantId) ?? { failingSince: null, pausedAt: null };
    this.health.set(merchantId, current);
    return current;
  }
  async existsFor(transactionId: string): Promise<boolean> {
    return this.rows.items.some((r) => r.transactionId === transactionId);
  }
  async add(notification: NewNotification): Promise<void> {
    this.rows.items.push({
      ...notification,
      status: 'pending',
      attempts: 0,
      lastAttemptAt: null,
      deliveredAt: null,
      attemptLog: [],
    });
  }
  async findForDelivery(id: string): Promise<NotificationToDeliver | undefined> {
    const row = this.rows.items.find((r) => r.id === id);
    if (!row) return undefined;
    const merchant = this.merchants.get(row.transactionId) ?? { reference: '', signingSecrets: [], merchantId: '' };
    return {
      id: row.id,
      url: row.url,
      body: row.body,
      status: row.status,
      attempts: row.attempts,
      ...merchant,
      merchantPausedAt: this.healthOf(merchant.merchantId).pausedAt,
    };
  }
  async recordAttempt(attempt: DeliveryAttempt, deliveredAt: Date | null, merchantId: string): Promise<Date | null> {
    const row = this.rows.items.find((r) => r.id === attempt.notificationId);
    const health = this.healthOf(merchantId);
    if (!row) return health.failingSince;
    row.attemptLog.push({ ...attempt });
    row.attempts = attempt.attempt;
    row.lastAttemptAt = attempt.at;
    if (attempt.outcome !== 'retry') row.status = attempt.outcome;
    if (deliveredAt) row.deliveredAt = deliveredAt;
    health.failingSince = deliveredAt ? null : (health.failingSince ?? attempt.at);
    return health.failingSince;
  }
  async pause(merchantId: string, notificationId: string, at: Date): Promise<boolean> {
    const health = this.healthOf(merchantId);
    const row = this.rows.items.find((r) => r.id === notificationId);
    if (row && row.status === 'pending') row.status = 'paused';
    if (health.pausedAt) return false;
    health.pausedAt = at;
    return true;
  }
  async redeliver(notificationId: string): Promise<{ merchantId: string } | undefined> {
    const row = this.rows.items.find((r) => r.id === notificationId);
    if (!row || (row.status !== 'failed' && row.status !== 'paused')) return undefined;
    row.status = 'pending';
    return { merchantId: this.merchants.get(row.transactionId)?.merchantId ?? '' };
  }
  async resume(merchantId: string): Promise<string[]> {
    this.health.set(merchantId, { failingSince: null, pausedAt: null });
    const paused = this.rows.items.filter(
      (r) => r.status === 'paused' && this.merchants.get(r.transactionId)?.merchantId === merchantId,
    );
    for (const row of paused) row.status = 'pending';
    return paused.map((r) => r.id);
  }
  async findByTransaction(transactionId: string): Promise<NotificationRecord | undefined> {
    const row = this.rows.items.find((r) => r.transactionId === transactionId);
    if (!row) return undefined;
    const { id, url, status, attempts, createdAt, lastAttemptAt, deliveredAt, attemptLog } = row;
    return {
      id,
      url,
      status,
      attempts,
      createdAt,
      lastAttemptAt,
      deliveredAt,
      attemptLog: attemptLog.map((a) => ({ ...a })),
    };
  }
  checkpoint = () => this.rows.checkpoint();
}

export interface EnqueuedJob {
  queue: string;
  data: object;
  options: FollowUpOptions;
}

/** Notices and their payments in memory (the database's partial unique index: one unsettled payment per notice). */
export class InMemoryNoticeLedger implements NoticeLedger, Restorable {
  private readonly notices = new Rows<NoticeState>();
  private readonly payments = new Rows<NoticePaymentRecord>();
  /** A test's notice (as the enforcement store would have it). */
  put(notice: Notice): void {
    this.notices.items = [...this.notices.items.filter((n) => n.id !== notice.id), clone(notice.toState())];
  }
  async findNotice(id: string): Promise<Notice | undefined> {
    const found = this.notices.items.find((n) => n.id === id);
    return found && Notice.restore(clone(found));
  }
  async updateNotice(notice: Notice): Promise<Notice> {
    const s = notice.toState();
    const stored = this.notices.items.find((n) => n.id === s.id);
    if (stored?.version !== s.version) throw CommonErrors.concurrentUpdate('notice', s.id);
    const saved = { ...s, version: s.version + 1 };
    this.put(Notice.restore(saved));
    return Notice.restore(saved);
  }
  async addPayment(payment: NoticePaymentRecord): Promise<void> {
    if (await this.openPayment(payment.noticeId)) throw noticePaymentOpen();
    this.payments.items.push(clone(payment));
  }
  async openPayment(noticeId: string): Promise<NoticePaymentRecord | undefined> {
    return this.payments.items.find((p) => p.noticeId === noticeId && p.settledAt === undefined);
  }
  async paymentFor(transactionId: string): Promise<NoticePaymentRecord | undefined> {
    return this.payments.items.find((p) => p.transactionId === transactionId);
  }
  async paymentsOf(noticeId: string, limit: number): Promise<NoticePaymentRecord[]> {
    return this.payments.items
      .filter((p) => p.noticeId === noticeId)
      .reverse()
      .slice(0, limit);
  }
  async settle(transactionId: string, settlement: NoticeSettlement): Promise<void> {
    this.payments.items = this.payments.items.map((p) =>
      p.transactionId === transactionId ? { ...p, ...settlement } : p,
    );
  }
  checkpoint = () => {
    const [notices, payments] = [this.notices.checkpoint(), this.payments.checkpoint()];
    return () => {
      notices();
      payments();
    };
  };
}

/** Follow-up jobs, recorded: a test reads `jobs` to see what a change scheduled (rolled back with the change). */
export class InMemoryFollowUps implements FollowUps, Restorable {
  private readonly rows = new Rows<EnqueuedJob>();
  get jobs(): readonly EnqueuedJob[] {
    return this.rows.items;
  }
  async enqueue(queue: string, data: object, options: FollowUpOptions = {}): Promise<void> {
    this.rows.items.push({ queue, data: clone(data), options: { ...options } });
  }
  /** Takes the recorded jobs of one queue off the list (a test playing the job queue's worker). */
  take(queue: string): EnqueuedJob[] {
    const taken = this.rows.items.filter((j) => j.queue === queue);
    this.rows.items = this.rows.items.filter((j) => j.queue !== queue);
    return taken;
  }
  checkpoint = () => this.rows.checkpoint();
}

/** Every repository in memory, as one set. */
export function inMemoryRepositories() {
  return {
    owners: new InMemoryVehicleOwnerRepository(),
    vehicles: new InMemoryVehicleRepository(),
    drivers: new InMemoryDriverRepository(),
    regions: new InMemoryRegionRepository(),
    assemblies: new InMemoryAssemblyRepository(),
    assemblyUsers: new InMemoryAssemblyUserRepository(),
    stations: new InMemoryStationRepository(),
    unions: new InMemoryTransportUnionRepository(),
    trips: new InMemoryTripRepository(),
    transactions: new InMemoryTransactionRepository(),
  } satisfies Repositories;
}

/**
 * The unit of work in memory, with the same all-or-nothing promise as the database's: a change that throws leaves
 * every store (repositories, audit log, inbox, outbox, jobs) as it was. Runs are serialised, as PGlite's are.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  readonly repositories = inMemoryRepositories();
  readonly audit = new InMemoryAuditLog();
  readonly callbacks = new InMemoryCallbackInbox();
  readonly callbackTokens = new InMemoryCallbackTokens();
  readonly notifications = new InMemoryNotificationOutbox();
  readonly followUps = new InMemoryFollowUps();
  readonly notices = new InMemoryNoticeLedger();
  /** The stores outside any unit of work (each call on its own). */
  readonly stores: DataStores = {
    ...this.repositories,
    callbacks: this.callbacks,
    callbackTokens: this.callbackTokens,
    notifications: this.notifications,
    followUps: this.followUps,
  };
  private queue: Promise<unknown> = Promise.resolve();

  run<T>(work: (context: WorkContext) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => this.runNow(work));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow<T>(work: (context: WorkContext) => Promise<T>): Promise<T> {
    const collections = Object.values(this.repositories).map(
      (r) => r.store as { snapshot(): Map<string, unknown>; rollback(s: Map<string, unknown>): void },
    );
    const snapshots = collections.map((c) => c.snapshot());
    const restores = [
      this.audit,
      this.callbacks,
      this.callbackTokens,
      this.notifications,
      this.followUps,
      this.notices,
      this.repositories.vehicles,
    ].map((s) => s.checkpoint());
    try {
      return await work({ ...this.stores, audit: this.audit, notices: this.notices });
    } catch (error) {
      collections.forEach((c, i) => c.rollback(snapshots[i]));
      restores.forEach((restore) => restore());
      throw error;
    }
  }
}

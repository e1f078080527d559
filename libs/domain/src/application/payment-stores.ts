/** A provider callback as it was received, kept before anything is applied (the inbox). */
export interface StoredCallback {
  id: string;
  /** The transaction its URL token named. */
  transactionId: string | null;
  body: string;
  receivedAt: Date;
}

export interface NewCallback {
  transactionId: string | null;
  receivedAt: Date;
  headers: Record<string, string>;
  body: string;
}

/** What applying a stored callback did: the domain's outcome, or `malformed` when the body was not a callback. */
export type CallbackOutcome = 'applied' | 'duplicate' | 'deferred' | 'anomaly' | 'malformed';

/** Port: the raw inbox of provider callbacks. Each stored callback is applied at most once. */
export interface CallbackInbox {
  store(callback: NewCallback): Promise<StoredCallback>;
  /**
   * Inside a unit of work: takes the callback for processing (a row lock until the work commits). False when it is
   * unknown or was already processed, by this worker or another one.
   */
  claim(id: string): Promise<boolean>;
  markProcessed(id: string, outcome: CallbackOutcome, at: Date): Promise<void>;
  /** Callbacks received by `receivedBy` and never processed, oldest first. */
  listUnprocessed(receivedBy: Date, limit: number): Promise<StoredCallback[]>;
}

/** Port: the per-transaction callback URL tokens (only a hash of each token is kept). */
export interface CallbackTokens {
  add(tokenHash: string, transactionId: string, at: Date): Promise<void>;
  findTransactionId(tokenHash: string): Promise<string | undefined>;
}

export type NotificationStatus = 'pending' | 'delivered' | 'failed';
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

export interface NewNotification {
  id: string;
  transactionId: string;
  url: string;
  /** The exact bytes to sign and send. */
  body: string;
  createdAt: Date;
}

/** A notification ready for an attempt, with what signing it needs. */
export interface NotificationToDeliver {
  id: string;
  url: string;
  body: string;
  status: NotificationStatus;
  attempts: number;
  reference: string;
  signingSecret: string;
}

export interface DeliveryAttempt {
  notificationId: string;
  attempt: number;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: DeliveryOutcome;
}

export interface NotificationRecord {
  id: string;
  url: string;
  status: NotificationStatus;
  attempts: number;
  createdAt: Date;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  attemptLog: DeliveryAttempt[];
}

/** Port: merchant notifications (the outbox) and the log of every delivery attempt. */
export interface NotificationOutbox {
  existsFor(transactionId: string): Promise<boolean>;
  add(notification: NewNotification): Promise<void>;
  findForDelivery(id: string): Promise<NotificationToDeliver | undefined>;
  /** Logs the attempt and moves the notification on (attempts, last attempt, final status), together. */
  recordAttempt(attempt: DeliveryAttempt, deliveredAt: Date | null): Promise<void>;
  findByTransaction(transactionId: string): Promise<NotificationRecord | undefined>;
}

export interface FollowUpOptions {
  startAfterSeconds?: number;
  /** At most one queued job per key (for queues that deduplicate). */
  singletonKey?: string;
}

/** Port: durable follow-up jobs. Inside a unit of work a job is enqueued in its transaction (both or neither). */
export interface FollowUps {
  enqueue(queue: string, data: object, options?: FollowUpOptions): Promise<void>;
}

/** The payment pipeline's stores, beside the repositories. */
export interface PaymentStores {
  callbacks: CallbackInbox;
  callbackTokens: CallbackTokens;
  notifications: NotificationOutbox;
  followUps: FollowUps;
}

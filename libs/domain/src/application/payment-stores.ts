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
export type CallbackOutcome = 'applied' | 'accepted' | 'duplicate' | 'deferred' | 'anomaly' | 'malformed';

/** A callback that named no transaction it may still speak for, kept for an operator and never applied. */
export interface DeadLetter {
  receivedAt: Date;
  reason: 'unknown_token' | 'expired_token';
  /** The transaction an expired token belonged to. */
  transactionId: string | null;
  headers: Record<string, string>;
  body: string;
}

/** Port: the raw inbox of provider callbacks. Each stored callback is applied at most once. */
export interface CallbackInbox {
  store(callback: NewCallback): Promise<StoredCallback>;
  /** How many callbacks were stored for a transaction (the cap on what one token may make us keep). */
  countFor(transactionId: string): Promise<number>;
  deadLetter(letter: DeadLetter): Promise<void>;
  /** Deletes dead letters received before `receivedBefore` (the retention period); answers how many went. */
  pruneDeadLetters(receivedBefore: Date): Promise<number>;
  /**
   * Inside a unit of work: takes the callback for processing (a row lock until the work commits). False when it is
   * unknown or was already processed, by this worker or another one.
   */
  claim(id: string): Promise<boolean>;
  markProcessed(id: string, outcome: CallbackOutcome, at: Date): Promise<void>;
  /**
   * A transaction's callbacks that were kept to be confirmed by the status API (outcome `deferred`), oldest first
   * (at most the per-transaction cap of them exist).
   */
  listDeferred(transactionId: string): Promise<StoredCallback[]>;
  /** Callbacks received by `receivedBy` and never processed, oldest first. */
  listUnprocessed(receivedBy: Date, limit: number): Promise<StoredCallback[]>;
}

/** Port: the per-transaction callback URL tokens (only a hash of each token is kept). */
export interface CallbackTokens {
  add(tokenHash: string, transactionId: string, at: Date): Promise<void>;
  find(tokenHash: string): Promise<{ transactionId: string; expiresAt: Date | null } | undefined>;
  /** Sets the token's expiry (once: a later call keeps the first expiry). */
  expire(transactionId: string, at: Date): Promise<void>;
}

export type NotificationStatus = 'pending' | 'delivered' | 'failed' | 'paused';
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
  merchantId: string;
  /** The merchant's current secret, then the one it replaced while their overlap lasts: each signs every attempt. */
  signingSecrets: string[];
  /** Set while the merchant's notifications are paused (its endpoint failed for too long). */
  merchantPausedAt: Date | null;
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
  /**
   * Logs the attempt and moves the notification on (attempts, last attempt, final status), together, and keeps the
   * merchant's delivery health: a delivery clears it; a failed attempt starts it. Answers since when the merchant's
   * notifications have been failing (null once one was delivered).
   */
  recordAttempt(attempt: DeliveryAttempt, deliveredAt: Date | null, merchantId: string): Promise<Date | null>;
  findByTransaction(transactionId: string): Promise<NotificationRecord | undefined>;
  /** Pauses the merchant's notifications (returns false when they already were) and marks this one paused. */
  pause(merchantId: string, notificationId: string, at: Date): Promise<boolean>;
  /**
   * Puts a failed or paused notification back to pending for another delivery run; undefined when there is no such
   * notification or it is pending or delivered.
   */
  redeliver(notificationId: string): Promise<{ merchantId: string } | undefined>;
  /** Lifts a merchant's pause; its paused notifications are pending again. Answers their ids. */
  resume(merchantId: string): Promise<string[]>;
}

export interface FollowUpOptions {
  startAfterSeconds?: number;
  /** At most one queued job per key (for queues that deduplicate). */
  singletonKey?: string;
  /** Jobs of one group share the queue's per-group concurrency (a merchant's notifications). */
  group?: string;
  /** With singletonKey: at most one job per key in each period of this many seconds. */
  throttleSeconds?: number;
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

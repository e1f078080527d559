/** What the payment use cases take from the configuration (bound in payments.module.ts). */
export interface PaymentSettings {
  /** Base of the callback URLs handed to the provider, e.g. https://pay.example.com (no trailing slash). */
  callbackBase: string;
  /** A pending transaction is checked against the provider's status API this long after it was requested. */
  reconcileAfterSeconds: number;
  /**
   * When set, provider callbacks must carry a valid X-Provider-Signature, and a signed final callback is final at
   * once. Unset, the URL token is the only credential: a final callback is confirmed with the status API first.
   */
  callbackSecret?: string;
  /** A callback token opens nothing this long after its transaction's final state. */
  tokenGraceHours: number;
  /** Callbacks stored per transaction, at most. */
  maxCallbacksPerTransaction: number;
  /** Dead-lettered callbacks are deleted this many days after they arrived. */
  deadLetterRetentionDays: number;
  /** A merchant whose notifications have failed for this long is paused. */
  notifyPauseAfterHours: number;
  /** The backstop asks about open transactions unchanged for this long. */
  backstopAfterMinutes: number;
  /** The provider's "Unpaid" becomes a failure once a payment is this old (its prompt long expired). */
  unpaidFinalAfterSeconds: number;
}
export const PAYMENT_SETTINGS = Symbol('PAYMENT_SETTINGS');

export const QUEUES = {
  notify: 'payment-notify',
  reconcile: 'payment-reconcile',
  sweep: 'payment-callback-sweep',
  backstop: 'payment-backstop',
  pruneDeadLetters: 'payment-dead-letter-prune',
} as const;

/** The attempt being run, as the job queue reports it. */
export interface AttemptInfo {
  retryCount: number;
  retryLimit: number;
}

/** Thrown to have a job retried with backoff; not an error worth a stack trace. */
export class RetryLater extends Error {}

import type {
  Actor,
  AuditEntryInput,
  Language,
  Page,
  PageRequest,
  RegistryKind,
  RegistryRecord,
  ReminderDocument,
  SearchTerms,
} from '@transport/domain';
import type { Principal } from './auth/principal';

// The app's own ports, beside the domain's (repositories, unit of work, payment stores): what the admin and payment
// features need that the domain has no word for, and what core/ needs from above it (who a key or a session is,
// whether the database answers). Adapters live in persistence/, payments/ and people/, bound in ports.module.ts and
// app.module.ts; fakes in the tests.

export interface ApiKeyRecord {
  id: string;
  role: string;
  principalId: string;
  label: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** A key to store: its hash only, never the key. */
export interface NewApiKey {
  id: string;
  keyHash: string;
  role: string;
  principalId: string;
  label: string;
  expiresAt: Date | null;
  at: Date;
}

/** Port: the stored API keys (hash only). Issuing and revoking write their audit entry with the change. */
export interface ApiKeyRegistry {
  add(key: NewApiKey, audit: { actor: Actor }): Promise<void>;
  findById(id: string): Promise<ApiKeyRecord | undefined>;
  revoke(id: string, at: Date, audit: { actor: Actor }): Promise<void>;
  /** Newest first, keyset-paged. */
  list(page: PageRequest): Promise<Page<ApiKeyRecord>>;
}

export interface MerchantRecord {
  id: string;
  name: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Port: merchants (the signing secret is written once and never read back here). */
export interface MerchantRegistry {
  exists(id: string): Promise<boolean>;
  /** Creates the merchant and its audit entry together. */
  add(
    merchant: { id: string; name: string; signingSecret: string; at: Date },
    audit: { actor: Actor },
  ): Promise<MerchantRecord>;
  /**
   * Replaces the merchant's signing secret; the replaced one keeps signing (beside the new one) until
   * `previousUntil`. Audited without the secrets. False for an unknown merchant.
   */
  rotateSigningSecret(
    rotation: { id: string; signingSecret: string; previousUntil: Date; at: Date },
    audit: { actor: Actor },
  ): Promise<boolean>;
}

export interface AuditRecord extends AuditEntryInput {
  id: string;
}

/** Port: reading the audit log. */
export interface AuditTrail {
  /** Oldest first, at most `limit`. */
  forRecord(entity: string, entityId: string, limit: number): Promise<AuditRecord[]>;
  /** The newest entry of a record with one of these actions (a vehicle's last certificate printed). */
  latest(entity: string, entityId: string, actions: readonly string[]): Promise<AuditRecord | undefined>;
  /** Newest first, keyset-paged (the cursor is an entry's id), narrowed by any of the filters. */
  browse(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>>;
}

export interface AuditFilter {
  entity?: string;
  actorId?: string;
  actorRole?: string;
  /** Entries at or after. */
  from?: Date;
  /** Entries before. */
  to?: Date;
}

/** Port: sends one signed notification; resolves with the HTTP status, rejects when no answer came. */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<number>;
}

/** Port: refuses callBackUrl values that point into our own network (server-side request forgery). */
export type CallbackUrlCheck = (url: string) => void;

/** One queue of background jobs and what handles them. */
export interface JobDefinition {
  name: string;
  concurrency: number;
  /** A cron expression: a job of this queue is also sent on that schedule (once across all instances). */
  cron?: string;
  options: Record<string, unknown>;
  /** At most this many running jobs per group (FollowUpOptions.group) in each instance. */
  groupConcurrency?: number;
  handle(data: never, attempt: { id: string; retryCount: number; retryLimit: number }): Promise<void>;
}

/** Port: text messages to a phone (an SMS gateway, or a local outbox in development and tests). */
export interface MessageSender {
  /** `to` is a normalised phone number (+233XXXXXXXXX). Throws when the message could not be handed over. */
  send(message: { to: string; text: string }): Promise<void>;
}

/**
 * Who may be texted and when (docs/security.md, "SMS: what it costs and who may be texted"): the country calling codes
 * a phone number may have wherever we would text it, and the quiet hours (REMINDER_QUIET_HOURS) that hold every message
 * that is not the answer to the person's own action.
 */
export interface TextingPolicy {
  countryCodes: readonly string[];
  quietHours: { fromHour: number; untilHour: number };
  timeZone: string;
}

/** Ghana only, no quiet hours: what the service specs run with unless they say otherwise. */
export const DEFAULT_TEXTING_POLICY: TextingPolicy = {
  countryCodes: ['233'],
  quietHours: { fromHour: 0, untilHour: 0 },
  timeZone: 'Africa/Accra',
};

/**
 * Port: driver registrations nobody activated, deleted once stale (UNACTIVATED_DRIVER_DAYS, docs/security.md): nobody
 * proved the number, and the record holds a stranger's personal data and an e-mail the real person may want.
 */
export interface StaleRegistrations {
  /**
   * Deletes up to `limit` drivers who never activated and registered before `registeredBefore`, with their reminders,
   * each with an audit entry at `at` that holds no personal data; answers their ids. A driver a vehicle names is kept.
   */
  deleteUnactivated(registeredBefore: Date, at: Date, limit: number): Promise<string[]>;
}

/** A limit: at most `points` uses of one key per `seconds`. */
export interface RateLimitRule {
  points: number;
  seconds: number;
  /** Said in the 429's detail ("Too many payment requests for this merchant"). */
  message: string;
}

/** Port: rate limits shared by every instance. */
export interface RateLimits {
  /** Counts one use of `key` under the named limit; past it, throws RATE_LIMITED (429 with Retry-After). */
  consume(limit: string, key: string): Promise<void>;
  /** Throws RATE_LIMITED when `key` has used up the named limit, without counting a use (for limits on failures). */
  assertAvailable(limit: string, key: string): Promise<void>;
  /** Forgets the uses of `key` under the named limit (after a success that proves the caller). */
  reset(limit: string, key: string): Promise<void>;
}

/** Port: starts and stops the background workers of the durable job queue. */
export interface JobWorkers {
  start(queues: JobDefinition[]): Promise<void>;
  stop(): Promise<void>;
  /** Started and not stopped: what readiness reports. */
  readonly running: boolean;
  /** Jobs per queue by state, from the queue's cached counts (cheap enough for every scrape). */
  depth(): Promise<QueueDepth[]>;
}

export interface QueueDepth {
  name: string;
  ready: number;
  deferred: number;
  active: number;
  failed: number;
}

/** Port: the payment gauges of the metrics, each an indexed count (every instance reports the same). */
export interface PaymentMetricsSource {
  pendingOlderThan(cutoff: Date): Promise<number>;
  notificationsPending(): Promise<number>;
}

/** Port: structured log lines for events worth counting (one JSON object each). */
export interface EventLog {
  info(event: string, fields: Record<string, unknown>): void;
  warn(event: string, fields: Record<string, unknown>): void;
  error(event: string, fields: Record<string, unknown>): void;
}

/** An assembly user as the sign-in feature sees them (their password hash, when one was set). */
export interface PersonRecord {
  id: string;
  assemblyId: string;
  assemblyName: string;
  name: string;
  email: string;
  phone: string;
  role: string;
  passwordHash?: string;
  /** Off-boarded: no sign-in and no session until enabled again. */
  disabled: boolean;
  /** Made by an assembly admin with a role that may approve, not yet confirmed by a second person: no sign-in. */
  awaitingConfirmation: boolean;
  /** The language the dashboard speaks to them in (English when unset). */
  language?: Language;
}

/** A one-time link to set a password (only its token's hash is kept). */
export interface PasswordLink {
  id: string;
  tokenHash: string;
  userId: string;
  purpose: 'invitation' | 'reset';
  expiresAt: Date;
  createdAt: Date;
}

export interface PersonSessionRecord {
  /** The SHA-256 of the cookie's token. */
  id: string;
  userId: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/**
 * A person's own change of password: stored only while `expectedHash` (the hash their current password was checked
 * against) is still theirs, so of two changes at once one is stored. The session it was made from is replaced by
 * `renewed`.
 */
export interface PasswordChange {
  userId: string;
  expectedHash: string;
  passwordHash: string;
  sessionId: string;
  renewed: PersonSessionRecord;
  at: Date;
}

/** Port: people's passwords, password links and sessions. */
export interface PeopleDirectory {
  findByEmail(email: string): Promise<PersonRecord | undefined>;
  findById(id: string): Promise<PersonRecord | undefined>;
  /** The user of an unused, unexpired link. */
  findByLinkToken(tokenHash: string, at: Date): Promise<PersonRecord | undefined>;
  /** Stores the link and audits its sending, in one transaction. */
  addLink(link: PasswordLink, audit: { actor: Actor }): Promise<void>;
  /**
   * Uses an unused, unexpired link: stores the password, marks the link (and every other open link of the user) used
   * and ends the user's sessions, in one transaction, audited as the user's own act. Undefined when the link is
   * unknown, used or expired (nothing changes).
   */
  useLink(tokenHash: string, passwordHash: string, at: Date): Promise<PersonRecord | undefined>;
  /**
   * Stores a person's own new password, voids their unused links, ends every session of theirs and opens the renewed
   * one, in one transaction, audited as their own act (with how many other sessions ended). False when the stored hash
   * is no longer `expectedHash` (nothing changes).
   */
  changePassword(change: PasswordChange, audit: { actor: Actor }): Promise<boolean>;
  /** Stores a person's own choice of language (a preference: their record's revision is unchanged). */
  setLanguage(userId: string, language: Language): Promise<void>;
  openSession(session: PersonSessionRecord): Promise<void>;
  /** The live session (not idle past `idleSince`, not past its end) with its person; undefined otherwise. */
  findSession(
    id: string,
    at: Date,
    idleSince: Date,
  ): Promise<{ session: PersonSessionRecord; person: PersonRecord } | undefined>;
  touchSession(id: string, at: Date): Promise<void>;
  closeSession(id: string): Promise<void>;
  /** Deletes the sessions past their end or idle since before `idleSince`; answers how many. */
  deleteEndedSessions(at: Date, idleSince: Date): Promise<number>;
  /** Ends every session of a user and voids their unused password links (off-boarding). */
  endAllOf(userId: string, at: Date): Promise<void>;
  /** Remembers that an account was signed in to from an address (`key`: a keyed hash of both). */
  rememberSignIn(key: string, at: Date): Promise<void>;
  /** Whether the account was signed in to from that address since `since`. */
  signedInFrom(key: string, since: Date): Promise<boolean>;
}

/** A record whose reminders are about: the vehicle (its owner is reminded) or the driver. */
export type ReminderEntity = 'vehicle' | 'driver';

/**
 * A document with an expiry in the window asked for, whose owner or driver has not stopped reminders and proved the
 * number is theirs (ReminderTarget.proven).
 */
export interface ExpiringDocument {
  entity: ReminderEntity;
  entityId: string;
  document: ReminderDocument;
  expiry: Date;
}

export type ReminderStatus = 'pending' | 'held' | 'sent' | 'failed' | 'cancelled';

export interface ReminderRecord extends ExpiringDocument {
  id: string;
  threshold: number;
  status: ReminderStatus;
}

/** The document as it stands now: where its reminder goes, and whether that person asked to stop them. */
export interface ReminderTarget {
  phone: string;
  stopped: boolean;
  /**
   * Whether the person proved the number is theirs: a driver who activated (the key sent to it), an owner an assembly
   * verified in person. Reminders go to those only (docs/security.md).
   */
  proven: boolean;
  /** The document's current expiry (another one after a renewal; undefined when it was removed). */
  expiry?: Date;
  /** The vehicle's registration number, for owners' reminders. */
  subject?: string;
  /** The person's language (a driver's, or the vehicle owner's): the reminder is written in it. Absent: English. */
  language?: string;
}

/**
 * Port: the reminders before documents lapse. A reminder is claimed by inserting its unique row (document, expiry,
 * threshold) together with its one send job, so however many instances scan, one message is queued.
 */
export interface ReminderStore {
  /** Documents expiring in [from, to] whose owner or driver has not stopped reminders. */
  expiring(from: Date, to: Date): Promise<ExpiringDocument[]>;
  /** The keys (reminderKey) of the reminders already claimed for documents expiring in [from, to]. */
  claimed(from: Date, to: Date): Promise<Set<string>>;
  /** Inserts the reminder and queues its send job in one transaction; false when it was already claimed. */
  claim(document: ExpiringDocument, threshold: number, at: Date, job: ReminderJob): Promise<boolean>;
  /** Held reminders made pending again, each with its send job queued (one instance takes each); how many. */
  releaseHeld(at: Date, job: ReminderJob): Promise<number>;
  find(id: string): Promise<ReminderRecord | undefined>;
  target(reminder: ExpiringDocument): Promise<ReminderTarget | undefined>;
  /** Counts an attempt; false when the reminder is no longer pending (nothing to do). */
  attempt(id: string, at: Date): Promise<boolean>;
  /**
   * Moves a pending reminder to `status`, with its history entry (if any) in the same transaction; false when it was
   * no longer pending.
   */
  settle(
    id: string,
    change: { status: Exclude<ReminderStatus, 'pending'>; reason?: string; at: Date },
    history?: AuditEntryInput,
  ): Promise<boolean>;
  /**
   * Sets or clears an owner's or a driver's request to stop reminders, audited when it changes: when they asked (null:
   * reminded), or undefined when there is no such record.
   */
  setStopped(
    record: { entity: 'owner' | 'driver'; id: string },
    stopped: boolean,
    at: Date,
    actor: Actor,
  ): Promise<Date | null | undefined>;
}

/** How a reminder's send job is queued: its queue, and the singleton key that keeps one queued job per reminder. */
export interface ReminderJob {
  queue: string;
  singletonKey(reminderId: string): string;
}

/**
 * Port: finding records of the registry (vehicles, drivers, owners) by what staff type into one search box. Newest
 * first across the kinds (createdAt, then id), keyset-paged by the `_id` of the last record; `assemblyId` narrows every
 * kind to one assembly (undefined: nationwide), counts included.
 */
export interface RegistrySearch {
  search(
    terms: SearchTerms,
    kinds: readonly RegistryKind[],
    page: PageRequest,
    assemblyId?: string,
  ): Promise<Page<RegistryRecord>>;
}

/** Port: who a presented credential is (undefined: nobody; unknown, revoked, expired or ended). */
export interface Authenticator {
  authenticate(credential: string): Promise<Principal | undefined>;
}

/** Port: the database as the readiness probes see it: which kind it is, and whether it answers a real query. */
export interface DatabaseHealth {
  readonly kind: string;
  ping(): Promise<void>;
  /** The migrations this release needs that the database has not applied. */
  pendingMigrations(): Promise<string[]>;
}

/** The answer a state change gave, kept under the Idempotency-Key its caller sent (core/http/idempotency.ts). */
export interface IdempotentAnswer {
  actorId: string;
  key: string;
  /** The method and path the key was used on, e.g. `POST /vehicles/<id>/inspect`. */
  route: string;
  /** SHA-256 (hex) of the request body as parsed. */
  bodyHash: string;
  /** Undefined while the key's first try is still being carried out (claimed, not yet answered). */
  status?: number;
  body: unknown;
  /** When the key was claimed. */
  createdAt: Date;
  expiresAt: Date;
}

/** A key claimed for a first try: who, which key, for which request, until when. */
export type IdempotencyClaim = Omit<IdempotentAnswer, 'status' | 'body'>;

/** Port: the kept answers of state changes sent with an Idempotency-Key, per actor. */
export interface IdempotencyRecords {
  /** The actor's answer under the key, unless it has expired by `at`. */
  find(actorId: string, key: string, at: Date): Promise<IdempotentAnswer | undefined>;
  /**
   * Claims the key for a first try, atomically (one claim wins however many tries arrive together). An expired
   * record under the key, or a claim made before `staleBefore` and never answered (its try died), is replaced.
   * Undefined when the claim is the caller's; otherwise the record that holds the key (answered or still claimed).
   */
  claim(claim: IdempotencyClaim, staleBefore: Date): Promise<IdempotentAnswer | undefined>;
  /** Keeps the answer of the caller's claimed try. */
  answer(actorId: string, key: string, status: number, body: unknown): Promise<void>;
  /** Gives up the caller's claim (its try was refused or failed): the next try under the key is judged anew. */
  release(actorId: string, key: string): Promise<void>;
  /** Deletes the answers expired by `at`; how many. */
  purge(at: Date): Promise<number>;
}

// The object-storage port and the inspection photos' records: storage-ports.ts.
export * from './storage-ports';

// The roadside's store (issue 47): the check log, offence catalogues and notices: enforcement-ports.ts.
export * from './enforcement-ports';

/** Injection tokens for the ports the services and controllers use (bound in ports.module.ts, the composition root). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const CLOCK = Symbol('CLOCK');
export const ID_GENERATOR = Symbol('ID_GENERATOR');
export const RANDOM_SOURCE = Symbol('RANDOM_SOURCE');
export const SECRET_HASHER = Symbol('SECRET_HASHER');

/** The unit of work (UnitOfWork): every change runs through it. */
export const UNIT_OF_WORK = Symbol('UNIT_OF_WORK');
/** Every store outside a unit of work (DataStores), for reads and single writes. */
export const STORES = Symbol('STORES');

/** The payment provider adapter (the PaymentProvider port). */
export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
/** The durable job queue's workers (JobWorkers). */
export const JOB_WORKERS = Symbol('JOB_WORKERS');
/** Sends signed merchant notifications over HTTP (WebhookSender). */
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');
/** Checks merchants' callBackUrl values (CallbackUrlCheck). */
export const CALLBACK_URL_CHECK = Symbol('CALLBACK_URL_CHECK');

/** API keys, merchants and the audit trail as the admin feature reads and writes them. */
export const API_KEYS = Symbol('API_KEYS');
export const MERCHANTS = Symbol('MERCHANTS');
export const AUDIT_TRAIL = Symbol('AUDIT_TRAIL');
/** Structured event log lines (EventLog). */
export const EVENT_LOG = Symbol('EVENT_LOG');
/** Rate limits shared across instances (RateLimits). */
export const RATE_LIMITS = Symbol('RATE_LIMITS');
/** Stale registrations nobody activated (StaleRegistrations). */
export const STALE_REGISTRATIONS = Symbol('STALE_REGISTRATIONS');
/** Who may be texted and when (TextingPolicy). */
export const TEXTING_POLICY = Symbol('TEXTING_POLICY');
/** Sends text messages to phones (MessageSender). */
export const MESSAGE_SENDER = Symbol('MESSAGE_SENDER');
/** Signs and checks vehicle certificates' tokens (Ed25519CertificateSigner). */
export const CERTIFICATE_SIGNER = Symbol('CERTIFICATE_SIGNER');
/** People's passwords, password links and sessions (PeopleDirectory). */
export const PEOPLE = Symbol('PEOPLE');
/** Reminders before documents lapse (ReminderStore). */
export const REMINDERS = Symbol('REMINDERS');
/** Finding vehicles, drivers and owners from one search box (RegistrySearch). */
export const REGISTRY_SEARCH = Symbol('REGISTRY_SEARCH');
/** Who an API key authenticates (Authenticator): the guard's view of the stored keys. */
export const API_KEY_AUTHENTICATOR = Symbol('API_KEY_AUTHENTICATOR');
/** Who a dashboard session cookie authenticates (Authenticator): the guard's view of people's sessions. */
export const SESSION_AUTHENTICATOR = Symbol('SESSION_AUTHENTICATOR');
/** Whether the database answers (DatabaseHealth), for the health routes. */
export const DATABASE_HEALTH = Symbol('DATABASE_HEALTH');
/** The kept answers of requests sent with an Idempotency-Key (IdempotencyRecords). */
export const IDEMPOTENCY_RECORDS = Symbol('IDEMPOTENCY_RECORDS');
/** What the public USSD and SMS checks find and keep (PublicRegistry). */
export const PUBLIC_REGISTRY = Symbol('PUBLIC_REGISTRY');
/** Files the records point to: inspection and offence photos (ObjectStorage). */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');
/** The records of inspections' photos (InspectionPhotos). */
export const INSPECTION_PHOTOS = Symbol('INSPECTION_PHOTOS');
/** The signs of fraud: flags, thresholds, stations' locations (core/fraud-ports.ts FraudFlags). */
export const FRAUD_FLAGS = Symbol('FRAUD_FLAGS');

/** The roadside's store (issue 47): the check log, offence catalogues and notices (core/ports.ts EnforcementStore). */
export const ENFORCEMENT_STORE = Symbol('ENFORCEMENT_STORE');

/** The evidence photos of notices (core/officer-ports.ts NoticePhotos). */
export const NOTICE_PHOTOS = Symbol('NOTICE_PHOTOS');
/** An officer's own notices and checks (core/officer-ports.ts OfficerRecords). */
export const OFFICER_RECORDS = Symbol('OFFICER_RECORDS');
export const ASSEMBLY_MERCHANTS = Symbol('ASSEMBLY_MERCHANTS');

/** Injection tokens for the ports the controllers use. */
export const REPOSITORIES = Symbol('REPOSITORIES');
export const UNIT_OF_WORK = Symbol('UNIT_OF_WORK');
export const CLOCK = Symbol('CLOCK');
export const ID_GENERATOR = Symbol('ID_GENERATOR');
export const RANDOM_SOURCE = Symbol('RANDOM_SOURCE');
export const SECRET_HASHER = Symbol('SECRET_HASHER');
export const APP_CONFIG = Symbol('APP_CONFIG');

/** The ports a use case needs, bundled: unit of work, clock, ids, randomness, secret hashing. */
export const USE_CASE_PORTS = Symbol('USE_CASE_PORTS');

/** The payment provider adapter (the PaymentProvider port). */
export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

/** The durable job queue (pg-boss in the service's database). */
export const JOB_QUEUE = Symbol('JOB_QUEUE');

/** The payment use cases' dependencies (PaymentServices), assembled once from the ports and the configuration. */
export const PAYMENT_SERVICES = Symbol('PAYMENT_SERVICES');

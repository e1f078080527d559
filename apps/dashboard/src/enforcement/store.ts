import type { components } from '@transport/api-client';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { sessionOver } from '../offline/pack';

// What an enforcer's phone keeps (issue 47): the roadside work pack (the vehicles they meet, the offence catalogue),
// and what was done without a signal, waiting to be sent: offences with their photos (each with its Idempotency-Key,
// so a send whose answer was lost is never a second notice or photo) and the log entries of checks. Keyed by person,
// as the inspectors' outbox is; signing out deletes the pack (after asking, when work waits), not the work waiting to
// be sent; the pack never outlives the session.

export type RoadsidePackVehicle = components['schemas']['EnforcementPackVehicleResponse'];
export type Catalogue = components['schemas']['CatalogueResponse'];
type Point = { type: 'Point'; coordinates: [number, number] };

export interface RoadsidePack {
  personId: string;
  fetchedAt: string;
  vehicles: RoadsidePackVehicle[];
  /** The pack's pages in order: each one's cursor ('' for the first), ETag (sent back: 304 when unchanged) and size. */
  pages?: Array<{ url: string; etag?: string; count: number }>;
  /** The officer's own assembly's catalogue. */
  catalogue?: Catalogue;
  /** A nationwide officer names the assembly of each offence: the assemblies, and the catalogues fetched so far. */
  nationwide?: boolean;
  assemblies?: Array<{ _id: string; name: string }>;
  catalogues?: Record<string, Catalogue>;
}

/** An offence recorded on the phone, not yet (wholly) accepted by the service. */
export interface QueuedOffence {
  /** The offence's Idempotency-Key (its photos' keys are made from it). */
  key: string;
  personId: string;
  vehicleId: string;
  plate: string;
  codes: string[];
  notes?: string;
  madeAt: string;
  madeWhere?: Point;
  /** A nationwide officer's: the assembly where the offence was made. */
  assembly?: string;
  /** The photos, downsized on the phone, in the order taken. */
  photos: Blob[];
  /** Set once the service recorded the notice; then its photos are sent. */
  noticeId?: string;
  /** How many photos the service has. */
  photosSent: number;
  /** waiting: to be sent (tried again until the service answers); refused: the service said no (a 4xx), kept for
   * the officer to read and discard. */
  state: 'waiting' | 'refused';
  /** The service's words for a refusal (its problem's detail), and its code (said in the officer's language). */
  problem?: string;
  problemCode?: string;
}

/** A check made from the pack without a signal: its log entry, sent when the signal returns. */
export interface QueuedCheck {
  key: string;
  personId: string;
  plate?: string;
  token?: string;
  madeAt: string;
}

/** The pack as written to IndexedDB: whose, when, and the rest encrypted (AES-GCM, a new IV each time). */
interface SealedRoadsidePack {
  personId: string;
  fetchedAt: string;
  iv: Uint8Array<ArrayBuffer>;
  sealed: ArrayBuffer;
}

interface RoadsideDb extends DBSchema {
  pack: { key: string; value: SealedRoadsidePack };
  keys: { key: string; value: CryptoKey };
  offences: { key: string; value: QueuedOffence };
  checks: { key: string; value: QueuedCheck };
}

let opened: Promise<IDBPDatabase<RoadsideDb>> | undefined;
const db = () =>
  (opened ??= openDB<RoadsideDb>('dashboard-roadside', 1, {
    upgrade(store) {
      store.createObjectStore('pack', { keyPath: 'personId' });
      store.createObjectStore('keys');
      store.createObjectStore('offences', { keyPath: 'key' });
      store.createObjectStore('checks', { keyPath: 'key' });
    },
  }));

const changes = new EventTarget();
/** Tells the screens that the queue or the pack changed (a count, a catalogue to show again). */
export function onQueueChange(listener: () => void): () => void {
  changes.addEventListener('change', listener);
  return () => changes.removeEventListener('change', listener);
}
const changed = () => changes.dispatchEvent(new Event('change'));

/**
 * The key the pack is sealed with: made by WebCrypto non-extractable (no script can read its bytes), kept as a key
 * object in IndexedDB, as the inspectors' pack's (docs/dashboard.md, "The work pack", says what that protects against).
 */
async function packKey(): Promise<CryptoKey> {
  const store = await db();
  const kept = await store.get('keys', 'pack-key');
  if (kept) return kept;
  const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await store.put('keys', made, 'pack-key');
  return made;
}

export async function roadsidePack(personId: string): Promise<RoadsidePack | undefined> {
  if (await expireRoadsidePacks()) return undefined;
  const store = await db();
  const kept = await store.get('pack', personId);
  const key = await store.get('keys', 'pack-key');
  if (!kept || !key) return undefined;
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: kept.iv }, key, kept.sealed);
  return JSON.parse(new TextDecoder().decode(plain)) as RoadsidePack;
}

export async function keepRoadsidePack(pack: RoadsidePack): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(pack));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await packKey(), plain);
  await (await db()).put('pack', { personId: pack.personId, fetchedAt: pack.fetchedAt, iv, sealed });
  changed();
}

/** Sign-out: the person's pack leaves the phone (work waiting to be sent stays, as inspections do). */
export const forgetRoadsidePack = async (personId: string) => void (await (await db()).delete('pack', personId));
/** The session ended (or nobody is signed in): no roadside pack, and no key, stays on the phone. */
export async function forgetRoadsidePacks(): Promise<void> {
  const store = await db();
  await Promise.all([store.clear('pack'), store.clear('keys')]);
}

/**
 * Deletes every roadside pack once the session can no longer be alive on the service (its end, or its idle time since
 * the service last answered this phone: the inspectors' pack's rule, `sessionOver`), also when that passed offline;
 * checked when the dashboard loads and before every reading. True when it did.
 */
export async function expireRoadsidePacks(now = Date.now()): Promise<boolean> {
  const store = await db();
  if ((await store.count('pack')) === 0 || !sessionOver(now)) return false;
  await forgetRoadsidePacks();
  changed();
  return true;
}

export async function queuedOffences(personId: string): Promise<QueuedOffence[]> {
  return (await (await db()).getAll('offences')).filter((o) => o.personId === personId);
}
export async function keepOffence(offence: QueuedOffence): Promise<void> {
  await (await db()).put('offences', offence);
  changed();
}
export async function dropOffence(key: string): Promise<void> {
  await (await db()).delete('offences', key);
  changed();
}

export async function queuedChecks(personId: string): Promise<QueuedCheck[]> {
  return (await (await db()).getAll('checks')).filter((c) => c.personId === personId);
}
export async function keepCheck(check: QueuedCheck): Promise<void> {
  await (await db()).put('checks', check);
  changed();
}
export async function dropCheck(key: string): Promise<void> {
  await (await db()).delete('checks', key);
  changed();
}

import { registrationSearchKey } from '@transport/domain';
import type { components } from '@transport/api-client';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { nextCursor } from '@transport/api-client';
import { api, type Session, type Vehicle } from '../api';

// The inspector's work pack (issue 43, item 8): their assembly's vehicles as GET /vehicles/work-pack gives them, kept
// on the phone so a vehicle never opened before can be found by its plate and inspected without a signal.
//
// It is personal data (plates of people's vehicles), so:
// - it is encrypted at rest with AES-GCM under a key WebCrypto made non-extractable, kept in IndexedDB (the browser
//   stores the key object; no script, this one included, can read its bytes): plates never lie in clear in the
//   browser's files. It does not protect against a script of this origin (it can ask the browser to decrypt), nor
//   someone holding the unlocked phone with the session open, and Chromium writes the key object into the same
//   IndexedDB files, so a full copy of them yields both (docs/dashboard.md, "The work pack", says so);
// - it is deleted at sign-out, and it never outlives the session: each reading checks the latest moment the service
//   can still hold the session (its absolute end, and its idle end counted from the last answer the service gave this
//   phone), and deletes the pack once that has passed, also when that happened offline (checked at load).

export type PackVehicle = components['schemas']['WorkPackVehicleResponse'];

/** The pack as kept (decrypted): its vehicles, each page's ETag (a refresh sends it back: 304 when unchanged), when. */
interface Pack {
  personId: string;
  fetchedAt: string;
  /** Each page by its cursor ('' for the first). */
  pages: Array<{ url: string; etag?: string; items: PackVehicle[] }>;
}

/** What is written to IndexedDB: who it belongs to, until when, and the pack encrypted. */
interface SealedPack {
  personId: string;
  fetchedAt: string;
  count: number;
  iv: Uint8Array<ArrayBuffer>;
  sealed: ArrayBuffer;
}

interface PackDb extends DBSchema {
  pack: { key: string; value: SealedPack };
  keys: { key: string; value: CryptoKey };
}

let opened: Promise<IDBPDatabase<PackDb>> | undefined;
const db = () =>
  (opened ??= openDB<PackDb>('dashboard-pack', 1, {
    upgrade(store) {
      store.createObjectStore('pack');
      store.createObjectStore('keys');
    },
  }));

const PACK = 'pack';
const KEY = 'pack-key';
/** When the service last answered this phone in the session (ms since the epoch), and the session's bounds. */
const TOUCHED = 'transport.pack-touched';
const BOUNDS = 'transport.pack-session';
const MINUTE = 60_000;

// Any answer of the service to a signed-in request other than 401 means it recorded the session's activity (at most
// once per touch step: counted below). Public routes record none.
const PUBLIC = ['/.well-known/', '/v/', '/auth/sign-in', '/auth/password', '/dashboard/'];
api.use({
  onResponse({ response }) {
    const path = new URL(response.url).pathname;
    if (response.status !== 401 && !PUBLIC.some((p) => path.startsWith(p)))
      localStorage.setItem(TOUCHED, String(Date.now()));
    return response;
  },
});

/** Records the session's bounds (at sign-in and whenever the service says who is signed in). */
export function packSession(session: Session): void {
  localStorage.setItem(BOUNDS, JSON.stringify({ endsAt: session.endsAt, idleSeconds: session.idleSeconds }));
}

/**
 * The latest moment the service can still hold the session: its absolute end, or its idle time after the last answer
 * minus one touch step (the service records activity at most once a step, so it may have seen it that much earlier).
 */
function sessionEnd(): number {
  const bounds = JSON.parse(localStorage.getItem(BOUNDS) ?? 'null') as { endsAt: string; idleSeconds: number } | null;
  const touched = Number(localStorage.getItem(TOUCHED) ?? '0');
  if (!bounds || !touched) return 0;
  const idle = bounds.idleSeconds * 1000;
  return Math.min(Date.parse(bounds.endsAt), touched + idle - Math.min(MINUTE, idle / 4));
}

/** Whether the session can no longer be alive on the service (the enforcer's pack follows the same rule). */
export const sessionOver = (now = Date.now()) => now > sessionEnd();

/** Deletes the pack and its key (sign-out, the session's end). */
export async function forgetPack(): Promise<void> {
  memory = undefined;
  localStorage.removeItem(BOUNDS);
  localStorage.removeItem(TOUCHED);
  const store = await db();
  await Promise.all([store.delete('pack', PACK), store.delete('keys', KEY)]);
  changed();
}

/** Deletes the pack once the session can no longer be alive on the service; true when it did. */
export async function expirePack(now = Date.now()): Promise<boolean> {
  const kept = await (await db()).get('pack', PACK);
  if (!kept || now <= sessionEnd()) return false;
  await forgetPack();
  return true;
}

async function key(): Promise<CryptoKey> {
  const store = await db();
  const kept = await store.get('keys', KEY);
  if (kept) return kept;
  // Non-extractable: IndexedDB keeps the key object, exportKey refuses, and only this origin can use it.
  const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await store.put('keys', made, KEY);
  return made;
}

/** The decrypted pack of this page's lifetime (decrypting 20,000 vehicles once, not at every keystroke). */
let memory: Pack | undefined;

async function seal(pack: Pack): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(pack));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key(), plain);
  const count = pack.pages.reduce((n, p) => n + p.items.length, 0);
  await (await db()).put('pack', { personId: pack.personId, fetchedAt: pack.fetchedAt, count, iv, sealed }, PACK);
  memory = pack;
  changed();
}

async function open(personId: string): Promise<Pack | undefined> {
  if (await expirePack()) return undefined;
  if (memory?.personId === personId) return memory;
  const kept = await (await db()).get('pack', PACK);
  if (!kept || kept.personId !== personId) return undefined;
  const keyKept = await (await db()).get('keys', KEY);
  if (!keyKept) return undefined;
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: kept.iv }, keyKept, kept.sealed);
  memory = JSON.parse(new TextDecoder().decode(plain)) as Pack;
  return memory;
}

/** How many vehicles the pack holds and when it was fetched; undefined when there is none. */
export async function packAge(personId: string): Promise<{ count: number; fetchedAt: string } | undefined> {
  if (await expirePack()) return undefined;
  const kept = await (await db()).get('pack', PACK);
  return kept && kept.personId === personId ? { count: kept.count, fetchedAt: kept.fetchedAt } : undefined;
}

let refreshing: Promise<boolean> | undefined;

/**
 * Fetches the pack again, page by page, each sent with the ETag it had (an unchanged page answers 304, no body).
 * Only inspectors carry one. False when the service could not be reached (the kept pack stays as it was).
 */
export function refreshPack(session: Session): Promise<boolean> {
  if (session.person.role !== 'inspector') return Promise.resolve(false);
  packSession(session);
  refreshing ??= (async () => {
    const personId = session.person._id;
    const before = await open(personId).catch(() => undefined);
    const known = new Map((before?.pages ?? []).map((p) => [p.url, p]));
    const pages: Pack['pages'] = [];
    let after: string | undefined;
    do {
      const was = known.get(after ?? '');
      const answer = await api
        .GET('/vehicles/work-pack', {
          params: { query: { after } },
          headers: was?.etag ? { 'If-None-Match': was.etag } : {},
        })
        .catch(() => undefined);
      if (!answer) return false;
      const { response } = answer;
      if (response.status !== 304 && !answer.data) return false;
      const items = response.status === 304 && was ? was.items : (answer.data ?? []);
      pages.push({ url: after ?? '', etag: response.headers.get('ETag') ?? was?.etag, items });
      after = nextCursor(response);
    } while (after);
    await seal({ personId, fetchedAt: new Date().toISOString(), pages });
    return true;
  })().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/** Every vehicle of the pack (none without one). */
export async function packVehicles(personId: string): Promise<PackVehicle[]> {
  const pack = await open(personId).catch(() => undefined);
  return pack ? pack.pages.flatMap((p) => p.items) : [];
}

/** The pack's vehicles whose plate contains what was typed, compared as the service does (letters and digits). */
export async function searchPack(personId: string, typed: string): Promise<PackVehicle[]> {
  const wanted = registrationSearchKey(typed);
  if (!wanted) return [];
  return (await packVehicles(personId)).filter((v) =>
    registrationSearchKey(v.registrationNumber ?? '').includes(wanted),
  );
}

/** A vehicle of the pack as the vehicle screen reads one (what the pack holds; the rest stays absent). */
export async function packVehicle(id: string, personId: string): Promise<Vehicle | undefined> {
  const found = (await packVehicles(personId)).find((v) => v._id === id);
  if (!found) return undefined;
  const { state, failed, ...fields } = found;
  const inspected = state !== 'awaiting_inspection';
  const checklist = failed && Object.fromEntries(failed.map((item) => [item, false]));
  return {
    ...fields,
    inspected,
    approved: state === 'approved',
    ...(checklist && { inspectionChecklist: checklist }),
  } as unknown as Vehicle;
}

/** Tells the screens showing the pack's age that it changed. */
const changes = new EventTarget();
const changed = () => changes.dispatchEvent(new Event('change'));
export function onPackChange(listener: () => void): () => void {
  changes.addEventListener('change', listener);
  return () => changes.removeEventListener('change', listener);
}

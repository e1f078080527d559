import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Session, Vehicle } from '../api';

// What the dashboard keeps on the phone (IndexedDB) so an inspector can work without a signal: inspections waiting to
// be sent (the outbox), checklists in progress (drafts), and the last copy of the session and of each vehicle seen
// (to open them again offline). A phone may be shared by a station's inspectors: every entry is keyed by its person as
// well as its vehicle (two people's inspections of one vehicle are two entries), and only that person gets it back.
// Signing out deletes the person's drafts and copies; inspections waiting to be sent stay, everyone's, each sent when
// its own person is signed in again (an inspection made at the roadside is official work, not a cache).

/** A checklist as typed: each item's tick, and the note on each failed item. */
export interface Checklist {
  checklist: Record<string, boolean>;
  defects: Record<string, string>;
  /** The grade of each failed item (dangerous, major, minor); absent on what a phone kept before grades. */
  grades?: Record<string, string>;
}

/** An inspection recorded on the phone, not yet accepted by the service. */
export interface Waiting extends Checklist {
  vehicleId: string;
  plate: string;
  personId: string;
  /** The vehicle's revision the inspector saw (sent as If-Match: a change meanwhile is a conflict, not overwritten). */
  revision: number;
  madeAt: string;
  /** Where it was made, when the inspector chose to say (GeoJSON, [longitude, latitude]). */
  madeWhere?: { type: 'Point'; coordinates: [number, number] };
  /**
   * Made once, when the inspection was first sent or kept, and sent with every try (Idempotency-Key): when the service
   * recorded it but its answer was lost, the next try gets that answer, not a conflict or a second inspection.
   * Absent on entries kept before keys were sent (one is made at their next try).
   */
  idempotencyKey?: string;
  /** A free re-inspection of the failed items (POST /vehicles/{id}/reinspect); absent: an inspection. */
  route?: 'reinspect';
  /** waiting: to be sent; conflict: the vehicle changed meanwhile; refused: the service said no (`problem` says why). */
  state: 'waiting' | 'conflict' | 'refused';
  problem?: string;
}

/** A checklist in progress, kept as it is typed. */
export interface Draft extends Checklist {
  vehicleId: string;
  personId: string;
}

/** An outbox or draft entry's key: its person, then its vehicle. */
type PersonKey = [personId: string, vehicleId: string];

interface OfflineDb extends DBSchema {
  outbox: { key: PersonKey; value: Waiting };
  drafts: { key: PersonKey; value: Draft };
  copies: { key: string; value: { key: string; personId: string; value: Session | Vehicle } };
}

let opened: Promise<IDBPDatabase<OfflineDb>> | undefined;
const db = () =>
  (opened ??= openDB<OfflineDb>('dashboard-offline', 2, {
    async upgrade(store, oldVersion, _newVersion, upgrade) {
      if (oldVersion < 1) store.createObjectStore('copies', { keyPath: 'key' });
      // Version 1 keyed the outbox and drafts by vehicle only (one person's entry replaced another's): kept entries
      // move to stores keyed by person and vehicle.
      const moved =
        oldVersion === 1
          ? {
              outbox: (await upgrade.objectStore('outbox' as never).getAll()) as Waiting[],
              drafts: (await upgrade.objectStore('drafts' as never).getAll()) as Draft[],
            }
          : { outbox: [], drafts: [] };
      if (oldVersion === 1) {
        store.deleteObjectStore('outbox');
        store.deleteObjectStore('drafts');
      }
      const outbox = store.createObjectStore('outbox', { keyPath: ['personId', 'vehicleId'] });
      const drafts = store.createObjectStore('drafts', { keyPath: ['personId', 'vehicleId'] });
      await Promise.all([...moved.outbox.map((e) => outbox.put(e)), ...moved.drafts.map((e) => drafts.put(e))]);
    },
  }));

/** Tells every part of the page (the outbox indicator, the vehicle's screen) that the outbox changed. */
const changes = new EventTarget();
export function onOutboxChange(listener: () => void): () => void {
  changes.addEventListener('change', listener);
  return () => changes.removeEventListener('change', listener);
}
const changed = () => changes.dispatchEvent(new Event('change'));

/**
 * Tells the screens that showed counts and lists that the outbox finished sending, with the plates of the inspections
 * the service accepted (their counts and lists are read again, so the two never contradict each other).
 */
const sendings = new EventTarget();
export function onOutboxSent(listener: (plates: string[]) => void): () => void {
  const heard = (event: Event) => listener((event as CustomEvent<string[]>).detail);
  sendings.addEventListener('sent', heard);
  return () => sendings.removeEventListener('sent', heard);
}
export const outboxSent = (plates: string[]) => sendings.dispatchEvent(new CustomEvent('sent', { detail: plates }));

export async function outbox(personId: string): Promise<Waiting[]> {
  return (await (await db()).getAll('outbox')).filter((w) => w.personId === personId);
}

export async function keepWaiting(entry: Waiting): Promise<void> {
  await (await db()).put('outbox', entry);
  changed();
}

export async function dropWaiting(personId: string, vehicleId: string): Promise<void> {
  await (await db()).delete('outbox', [personId, vehicleId]);
  changed();
}

export async function draft(vehicleId: string, personId: string): Promise<Draft | undefined> {
  return (await db()).get('drafts', [personId, vehicleId]);
}

export async function keepDraft(entry: Draft): Promise<void> {
  await (await db()).put('drafts', entry);
}

export async function dropDraft(personId: string, vehicleId: string): Promise<void> {
  await (await db()).delete('drafts', [personId, vehicleId]);
}

/** Keeps the last copy of a record read online (the session, a vehicle), to open it again offline. */
export async function keepCopy(key: string, personId: string, value: Session | Vehicle): Promise<void> {
  await (await db()).put('copies', { key, personId, value });
}

export async function copy<T extends Session | Vehicle>(
  key: string,
): Promise<{ personId: string; value: T } | undefined> {
  const kept = await (await db()).get('copies', key);
  return kept && { personId: kept.personId, value: kept.value as T };
}

export async function dropCopy(key: string): Promise<void> {
  await (await db()).delete('copies', key);
}

/**
 * Signing out: the person's drafts and the copies they read (the session, vehicles) leave the phone. Inspections
 * waiting to be sent stay, theirs and other people's: each is sent when its person next signs in on this phone.
 */
export async function forgetPerson(personId: string): Promise<void> {
  const tx = (await db()).transaction(['drafts', 'copies'], 'readwrite');
  const drafts = await tx.objectStore('drafts').getAll();
  const copies = await tx.objectStore('copies').getAll();
  await Promise.all([
    ...drafts
      .filter((d) => d.personId === personId)
      .map((d) => tx.objectStore('drafts').delete([personId, d.vehicleId])),
    ...copies.filter((c) => c.personId === personId).map((c) => tx.objectStore('copies').delete(c.key)),
    tx.done,
  ]);
  changed();
}

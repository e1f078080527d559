import { INSPECTION_ITEMS, registrationSearchKey } from '@transport/domain';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { useEffect, useState } from 'preact/hooks';
import { api, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { ActionForm, dateTime, Title } from '../ui';
import { Entered, sendWaiting } from './outbox';
import { keepWaiting, outbox, type Checklist } from './store';

// An inspection of a plate the phone does not know (a vehicle registered after the work pack was fetched, or a pack
// never fetched): recorded offline by its plate, kept here, and matched to its vehicle when there is a signal. The
// service is asked for the plate as the Find screen asks (GET /search, which answers only the person's assembly's
// vehicles), and a hit counts when its plate has the same letters and digits; exactly one match moves it into the outbox with the vehicle's current
// revision and the idempotency key it was given when made, and the outbox sends it. No match: the inspector is told,
// and it stays here until they correct the plate or discard it. It is never deleted otherwise (sign-out asks first).

export interface Unmatched extends Checklist {
  /** The Idempotency-Key it is sent with, made once when it was recorded; also its key here. */
  id: string;
  personId: string;
  plate: string;
  madeAt: string;
  /** waiting: not asked yet (no signal); unknown: the service has no such plate in the assembly; busy: the outbox
   * already holds an inspection of that vehicle. */
  state: 'waiting' | 'unknown' | 'busy';
}

interface UnmatchedDb extends DBSchema {
  unmatched: { key: string; value: Unmatched };
}

let opened: Promise<IDBPDatabase<UnmatchedDb>> | undefined;
const db = () =>
  (opened ??= openDB<UnmatchedDb>('dashboard-unmatched', 1, {
    upgrade(store) {
      store.createObjectStore('unmatched', { keyPath: 'id' });
    },
  }));

const changes = new EventTarget();
const changed = () => changes.dispatchEvent(new Event('change'));

export async function unmatched(personId: string): Promise<Unmatched[]> {
  return (await (await db()).getAll('unmatched')).filter((u) => u.personId === personId);
}

async function keep(entry: Unmatched): Promise<void> {
  await (await db()).put('unmatched', entry);
  changed();
}

async function drop(id: string): Promise<void> {
  await (await db()).delete('unmatched', id);
  changed();
}

/** Signing out: the person's unmatched inspections go with everything else they kept (after they confirmed). */
export async function forgetUnmatched(personId: string): Promise<void> {
  for (const entry of await unmatched(personId)) await drop(entry.id);
}

let matching: Promise<void> | undefined;

/**
 * The assembly's one vehicle with this plate, compared as the service compares plates (its letters and digits: the
 * domain's registrationSearchKey, so "gr 7777 26" is GR 7777-26); 'offline' when the service did not answer.
 */
async function findPlate(plate: string): Promise<Vehicle | undefined | 'offline'> {
  const key = registrationSearchKey(plate);
  if (key.length < 3) return undefined;
  const answer = await api
    .GET('/search', { params: { query: { query: plate, kind: 'vehicle', limit: 50 } } })
    .catch(() => undefined);
  if (!answer?.data) return answer?.response.status === 400 ? undefined : 'offline';
  const same = answer.data.filter((hit) => registrationSearchKey(hit.label) === key);
  if (same.length !== 1) return undefined;
  const vehicle = await api.GET('/vehicles/{id}', { params: { path: { id: same[0]._id } } }).catch(() => undefined);
  if (!vehicle?.data) return vehicle?.response.status === 404 ? undefined : 'offline';
  return vehicle.data;
}

/**
 * Asks the service for each waiting plate: one vehicle moves the inspection into the outbox (then sent), none marks
 * it unknown for the inspector. Stops at the first unanswered request (no signal, the session ended).
 */
export function matchUnmatched(personId: string): Promise<void> {
  matching ??= (async () => {
    let moved = false;
    for (const entry of await unmatched(personId)) {
      if (entry.state !== 'waiting') continue;
      const vehicle = await findPlate(entry.plate);
      if (vehicle === 'offline') break;
      if (!vehicle || vehicle.__v === undefined) {
        await keep({ ...entry, state: 'unknown' });
        continue;
      }
      if ((await outbox(personId)).some((e) => e.vehicleId === vehicle._id)) {
        await keep({ ...entry, state: 'busy' });
        continue;
      }
      await keepWaiting({
        checklist: entry.checklist,
        defects: entry.defects,
        vehicleId: vehicle._id,
        plate: vehicle.registrationNumber ?? entry.plate,
        personId,
        revision: vehicle.__v,
        madeAt: entry.madeAt,
        idempotencyKey: entry.id,
        state: 'waiting',
      });
      await drop(entry.id);
      moved = true;
    }
    if (moved) await sendWaiting(personId);
  })().finally(() => {
    matching = undefined;
  });
  return matching;
}

export function useUnmatched(personId: string): Unmatched[] {
  const [entries, setEntries] = useState<Unmatched[]>([]);
  useEffect(() => {
    let live = true;
    const read = () =>
      unmatched(personId).then(
        (found) => live && setEntries(found),
        () => undefined,
      );
    read();
    changes.addEventListener('change', read);
    return () => {
      live = false;
      changes.removeEventListener('change', read);
    };
  }, [personId]);
  return entries;
}

/** In the header: inspections waiting for their plate, and those the inspector must deal with. */
export function UnmatchedIndicator({ personId }: { personId: string }) {
  const entries = useUnmatched(personId);
  useEffect(() => {
    const match = () => void matchUnmatched(personId);
    match();
    addEventListener('online', match);
    return () => removeEventListener('online', match);
  }, [personId]);
  const waiting = entries.filter((e) => e.state === 'waiting').length;
  const stuck = entries.length - waiting;
  if (entries.length === 0) return null;
  return (
    <div class="outbox" aria-live="polite">
      {waiting > 0 && (
        <p class="badge">
          <a href="#/unmatched">{w.pack.waitingCount(waiting)}</a>
        </p>
      )}
      {stuck > 0 && (
        <p class="badge bad">
          <a href="#/unmatched">{w.pack.unknownCount(stuck)}</a>
        </p>
      )}
    </div>
  );
}

/** The checklist ticked, as the form holds it. */
function typed(data: FormData): Checklist {
  return { checklist: Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, data.has(item)])), defects: {} };
}

/** Recording an inspection by its plate alone, for a vehicle the phone does not know. */
export function InspectByPlate({ personId, plate }: { personId: string; plate: string }) {
  return (
    <>
      <Title>{w.pack.unknownTitle}</Title>
      <ActionForm
        label={w.vehicle.inspection}
        help={w.pack.unknownHelp}
        submit={w.pack.save}
        done=""
        action={async (data) => {
          const typedPlate = String(data.get('plate') ?? '').trim();
          const entry: Unmatched = {
            ...typed(data),
            id: crypto.randomUUID(),
            personId,
            plate: typedPlate,
            madeAt: new Date().toISOString(),
            state: 'waiting',
          };
          await keep(entry);
          if (navigator.onLine) void matchUnmatched(personId);
          return { words: w.pack.keptUnknown(typedPlate), tone: 'warn' };
        }}
      >
        <label for="plate">{w.pack.plate}</label>
        <input id="plate" name="plate" required maxLength={20} autocomplete="off" defaultValue={plate} />
        <fieldset class="checklist">
          <legend>{w.vehicle.inspection}</legend>
          {INSPECTION_ITEMS.map((item) => (
            <label key={item} class="check">
              <input type="checkbox" name={item} />
              {w.checklist[item]}
            </label>
          ))}
        </fieldset>
      </ActionForm>
    </>
  );
}

/** The inspections waiting for their plates: correct a plate and match again, or discard. */
export function UnmatchedList({ personId }: { personId: string }) {
  const entries = useUnmatched(personId);
  return (
    <>
      <Title>{w.pack.listTitle}</Title>
      {entries.length === 0 && <p>{w.pack.listEmpty}</p>}
      {entries.map((entry) => (
        <section
          key={entry.id}
          class={entry.state === 'waiting' ? 'panel' : 'panel alert error'}
          aria-labelledby={`u-${entry.id}`}
        >
          <h2 id={`u-${entry.id}`}>{w.pack.made(entry.plate, dateTime(entry.madeAt))}</h2>
          <p>
            {entry.state === 'waiting'
              ? w.pack.waiting
              : entry.state === 'busy'
                ? w.pack.alreadyWaiting(entry.plate)
                : w.pack.notFound(entry.plate)}
          </p>
          <Entered entry={entry} />
          <form
            onSubmit={async (event) => {
              event.preventDefault();
              const plate = String(new FormData(event.currentTarget).get('plate') ?? '').trim();
              await keep({ ...entry, plate: plate || entry.plate, state: 'waiting' });
              await matchUnmatched(personId);
            }}
          >
            <label for={`plate-${entry.id}`}>{w.pack.plate}</label>
            <input id={`plate-${entry.id}`} name="plate" maxLength={20} autocomplete="off" defaultValue={entry.plate} />
            <p class="actions">
              <button type="submit">{w.pack.matchAgain}</button>{' '}
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (confirm(w.pack.discardSure(entry.plate))) void drop(entry.id);
                }}
              >
                {w.pack.discard}
              </button>
            </p>
          </form>
        </section>
      ))}
    </>
  );
}

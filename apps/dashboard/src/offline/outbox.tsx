import { useEffect, useState } from 'preact/hooks';
import { api, ApiProblem, must, type Session, type Vehicle } from '../api';
import { words as w } from '../i18n';
import {
  copy,
  dropCopy,
  dropWaiting,
  keepCopy,
  keepWaiting,
  onOutboxChange,
  onOutboxSent,
  outbox,
  outboxSent,
  type Checklist,
  type Waiting,
} from './store';
import { packVehicle } from './pack';
import { refreshPhotosRequired, sendPhotos } from './photos';

// Sending what was recorded without a signal, when the signal returns; and reading records again offline.

let sending: Promise<void> | undefined;

/**
 * Sends the person's waiting inspections, each with the revision it was made against (If-Match). The service accepts
 * it (gone from the outbox), finds the vehicle changed meanwhile (409/412: kept as a conflict for the inspector to
 * review), refuses it (kept, with the service's words), or cannot be reached (kept waiting, tried again later).
 */
export function sendWaiting(personId: string): Promise<void> {
  sending ??= (async () => {
    const sent: string[] = [];
    try {
      await sendEach(personId, sent);
    } finally {
      if (sent.length > 0) outboxSent(sent);
    }
    // Then the photos of the inspections accepted (each sent after its inspection, with its key).
    await sendPhotos(personId).catch(() => undefined);
  })().finally(() => {
    sending = undefined;
  });
  return sending;
}

async function sendEach(personId: string, sent: string[]): Promise<void> {
  for (const kept of await outbox(personId)) {
    if (kept.state !== 'waiting') continue;
    const entry = kept.idempotencyKey ? kept : { ...kept, idempotencyKey: crypto.randomUUID() };
    if (entry !== kept) await keepWaiting(entry);
    // A re-inspection goes to its own route with the same body's shape (only the failed items).
    const route = entry.route === 'reinspect' ? '/vehicles/{id}/reinspect' : '/vehicles/{id}/inspect';
    const answer = await api
      .POST(route as '/vehicles/{id}/inspect', {
        params: {
          path: { id: entry.vehicleId },
          header: { 'If-Match': String(entry.revision), 'Idempotency-Key': entry.idempotencyKey },
        },
        body: {
          inspectionChecklist: entry.checklist as never,
          // When it was made, not when the phone found a signal (the service keeps both).
          madeAt: entry.madeAt,
          ...(entry.madeWhere && { madeWhere: entry.madeWhere }),
          ...(Object.keys(entry.defects).length > 0 ? { defects: entry.defects } : {}),
          ...(entry.grades && Object.keys(entry.grades).length > 0
            ? { grades: entry.grades as Record<string, 'dangerous' | 'major' | 'minor'> }
            : {}),
        },
      })
      .catch(() => undefined);
    // No connection, the session ended (401), or an earlier send of it is still being recorded (the service said so,
    // 409 IDEMPOTENCY_KEY_IN_PROGRESS): it stays waiting for the next chance.
    const inProgress = (answer?.error as { code?: string } | undefined)?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
    if (!answer || answer.response.status === 401 || inProgress) return;
    if (answer.response.ok) {
      await dropWaiting(personId, entry.vehicleId);
      sent.push(entry.plate);
    } else if (answer.response.status === 409 || answer.response.status === 412)
      await keepWaiting({ ...entry, state: 'conflict' });
    else
      await keepWaiting({
        ...entry,
        state: 'refused',
        problem: (answer.error as { detail?: string } | undefined)?.detail ?? `HTTP ${answer.response.status}`,
      });
  }
}

/** The person's outbox, kept current as it changes. */
export function useOutbox(personId: string): Waiting[] {
  const [entries, setEntries] = useState<Waiting[]>([]);
  useEffect(() => {
    let live = true;
    const read = () =>
      outbox(personId).then(
        (found) => live && setEntries(found),
        () => undefined,
      );
    read();
    const stop = onOutboxChange(read);
    return () => {
      live = false;
      stop();
    };
  }, [personId]);
  return entries;
}

/**
 * The outbox in the header: how many inspections wait to be sent and how many need the inspector (a conflict, a
 * refusal), each a link to its vehicle. It sends what waits when the page loads and whenever the connection returns.
 */
export function OutboxIndicator({ session }: { session: Session }) {
  const personId = session.person._id;
  const entries = useOutbox(personId);
  useEffect(() => {
    const send = () => void sendWaiting(personId);
    send();
    // Whether photos are required, kept for the forms to ask the same without a signal (offline/photos.ts).
    if (session.person.assembly) void refreshPhotosRequired(session.person.assembly).catch(() => undefined);
    addEventListener('online', send);
    return () => removeEventListener('online', send);
  }, [personId]);
  const [sent, setSent] = useState<string[]>([]);
  useEffect(() => onOutboxSent(setSent), []);
  const waiting = entries.filter((e) => e.state === 'waiting');
  const stuck = entries.filter((e) => e.state !== 'waiting');
  return (
    <>
      {/* A polite live region, not a role=status: the screens' own statuses stay the page's first. */}
      <p class="sent-notice" aria-live="polite">
        {sent.length > 0 && w.offline.sentNotice(sent)}
      </p>
      <OutboxCounts waiting={waiting} stuck={stuck} />
    </>
  );
}

function OutboxCounts({ waiting, stuck }: { waiting: Waiting[]; stuck: Waiting[] }) {
  return (
    // A polite live region, not a role=status: the screens' own statuses stay the page's first.
    <div class="outbox" aria-live="polite">
      {waiting.length > 0 && (
        <p class="badge">
          <a href={`#/vehicles/${waiting[0].vehicleId}`}>{w.offline.waitingCount(waiting.length)}</a>
        </p>
      )}
      {stuck.length > 0 && (
        <p class="badge bad">
          <a href={`#/vehicles/${stuck[0].vehicleId}`}>{w.offline.needsYouCount(stuck.length)}</a>
        </p>
      )}
    </div>
  );
}

/** What the inspector entered, in words: the items passed, those failed with their notes. */
export function Entered({ entry }: { entry: Checklist }) {
  const items = Object.keys(entry.checklist);
  const passed = items.filter((item) => entry.checklist[item]).map((item) => w.checklist[item] ?? item);
  const failed = items
    .filter((item) => !entry.checklist[item])
    .map((item) => (entry.defects[item] ? `${w.checklist[item] ?? item}: ${entry.defects[item]}` : w.checklist[item]));
  return (
    <ul class="entered">
      {passed.length > 0 && <li>{w.offline.passed(passed.join(', '))}</li>}
      {failed.length > 0 && <li>{w.offline.failed(failed.join(', '))}</li>}
    </ul>
  );
}

/** A vehicle, from the service, or the copy kept on this phone when the service cannot be reached. */
export async function loadVehicle(id: string, personId: string): Promise<Vehicle> {
  try {
    const vehicle = await must(api.GET('/vehicles/{id}', { params: { path: { id } } }));
    await keepCopy(`vehicle:${id}`, personId, vehicle).catch(() => undefined);
    return vehicle;
  } catch (error) {
    const offline = error instanceof ApiProblem && error.status === 0;
    const kept = offline ? await copy<Vehicle>(`vehicle:${id}`) : undefined;
    if (kept && kept.personId === personId) return kept.value;
    // Never opened on this phone: the work pack's copy (what an inspection needs).
    const packed = offline ? await packVehicle(id, personId).catch(() => undefined) : undefined;
    if (packed) return packed;
    throw error;
  }
}

/**
 * Who is signed in: the service says, or, when it cannot be reached, the session kept on this phone (signing out
 * deletes it; a session the service ended is forgotten when it says so).
 */
export async function loadSession(): Promise<Session | null> {
  const answer = await api.GET('/auth/session').catch(() => undefined);
  if (answer === undefined) return (await copy<Session>('session').catch(() => undefined))?.value ?? null;
  if (!answer.data) {
    await dropCopy('session').catch(() => undefined);
    return null;
  }
  await keepCopy('session', answer.data.person._id, answer.data).catch(() => undefined);
  return answer.data;
}

/** On a vehicle's page: its inspection recorded on this phone, waiting to be sent or needing the inspector. */
export function WaitingBadge({ vehicleId, personId }: { vehicleId: string; personId: string }) {
  const mine = useOutbox(personId).find((e) => e.vehicleId === vehicleId);
  if (!mine) return null;
  return (
    <p class={mine.state === 'waiting' ? 'alert info waiting' : 'alert error waiting'}>
      {mine.state === 'waiting' ? w.offline.waitingCount(1) : w.offline.needsYouCount(1)}
    </p>
  );
}

import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../api';
import { words as w } from '../i18n';
import { colourName } from '../colours';
import { onPackChange, packAge, packVehicles, refreshPack, type PackVehicle } from './pack';

/** How old the work pack on this phone is, and a way to update it now (an inspector's only). */
export function PackAge({ session }: { session: Session }) {
  const personId = session.person._id;
  const [age, setAge] = useState<{ count: number; fetchedAt: string } | null | undefined>();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const read = () =>
      packAge(personId).then(
        (found) => setAge(found ?? null),
        () => setAge(null),
      );
    read();
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    const stop = onPackChange(read);
    return () => {
      clearInterval(tick);
      stop();
    };
  }, [personId]);
  if (session.person.role !== 'inspector' || age === undefined) return null;
  const minutes = age ? Math.floor((now - Date.parse(age.fetchedAt)) / 60_000) : 0;
  return (
    <div class="pack-age">
      <p class="muted">{age ? w.pack.age(age.count, w.pack.ago(minutes)) : w.pack.none}</p>
      <p class="actions">
        <button
          type="button"
          aria-disabled={busy}
          onClick={async () => {
            if (busy) return;
            setBusy(true);
            setFailed(!(await refreshPack(session).catch(() => false)));
            setBusy(false);
          }}
        >
          {busy ? w.pack.refreshing : w.pack.refresh}
        </button>
      </p>
      <p aria-live="polite">{failed && <span class="alert warn">{w.pack.refreshFailed}</span>}</p>
    </div>
  );
}

/** Without a signal, the inspection queue as the work pack holds it: the assembly's vehicles awaiting inspection. */
export function PackQueue({ session }: { session: Session }) {
  const personId = session.person._id;
  const [vehicles, setVehicles] = useState<PackVehicle[] | undefined>();
  useEffect(() => {
    packVehicles(personId).then(
      (all) => setVehicles(all.filter((v) => v.state === 'awaiting_inspection')),
      () => setVehicles([]),
    );
  }, [personId]);
  if (session.person.role !== 'inspector' || vehicles === undefined) return null;
  return (
    <section aria-labelledby="pack-queue">
      <h3 id="pack-queue">{w.pack.queueTitle}</h3>
      <PackAge session={session} />
      {vehicles.length === 0 ? (
        <p class="empty">{w.pack.queueEmpty}</p>
      ) : (
        <ul class="cards">
          {vehicles.map((v) => (
            <li key={v._id}>
              <a href={`#/vehicles/${v._id}`} class="card-title">
                {v.registrationNumber ?? v._id}
              </a>
              <span>{[v.make, v.model, v.color && colourName(v.color)].filter(Boolean).join(' · ')}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { api, must, type Session } from '../api';
import { currentKeys, tokenIn, verifyHere } from '../certificate-check';
import { words as w } from '../i18n';
import { Camera } from '../screens/scan';
import { dateTime, day, Done, Loading, ProblemMessage, Title, useLoad } from '../ui';
import {
  dropOffence,
  expireRoadsidePacks,
  forgetRoadsidePack,
  forgetRoadsidePacks,
  keepOffence,
  onQueueChange,
  queuedChecks,
  queuedOffences,
  roadsidePack,
  type Catalogue,
  type QueuedOffence,
  type RoadsidePack,
} from './store';
import { catalogueOf, check, downsized, refreshRoadsidePack, sendQueued, type Checked, type Question } from './work';

// The enforcer's screens (issue 47): the roadside check (plate typed or the certificate's QR scanned), its answer,
// recording an offence from it (offline too, with photos), and the officer's own day.

const cedis = (pesewas: number) => w.enforce.cedis((pesewas / 100).toFixed(2));

const STYLE = `
.verdict{border-radius:.6rem;padding:1rem;margin:1rem 0}
.verdict h2{margin:0 0 .4rem;font-size:1.6rem}
.verdict h3{margin:.6rem 0 .2rem;font-size:1.1rem}
.verdict .facts,.verdict .documents{background:#fff;color:#111;border-radius:.4rem;padding:.5rem .5rem .5rem 1.5rem}
.verdict .plate{font-size:1.3rem;font-weight:700;letter-spacing:.04em}
.verdict .documents .ended{color:#8a1010;font-weight:600}
.verdict .small{font-size:.9rem}
.verdict.valid{background:#0b6b2e;color:#fff}
.verdict.expired{background:#ffd166;color:#1a1300}
.verdict.withdrawn{background:#a61b1b;color:#fff}
.verdict.not_genuine{background:#111;color:#fff}
.verdict.unknown{background:#4a4a4a;color:#fff}
label.check{display:block;margin:.3rem 0}`;

/** The header's part for enforcers: their two screens, and what waits to be sent (sent when the signal returns). */
export function EnforcerNav({ session, section }: { session: Session; section: string }) {
  const personId = session.person._id;
  const [queued, setQueued] = useState<QueuedOffence[]>([]);
  const waiting = queued.filter((q) => q.state === 'waiting').length;
  const refused = queued.length - waiting;
  useEffect(() => {
    const count = () => void queuedOffences(personId).then(setQueued);
    const send = () => void sendQueued(personId).finally(count);
    const refresh = () => void refreshRoadsidePack(session).catch(() => undefined);
    count();
    send();
    refresh();
    const online = () => {
      send();
      refresh();
    };
    addEventListener('online', online);
    const stop = onQueueChange(count);
    return () => {
      removeEventListener('online', online);
      stop();
    };
  }, [personId]);
  return (
    <>
      <a href="#/roadside" aria-current={section === '' || section === 'roadside' ? 'page' : undefined}>
        {w.enforce.nav}
      </a>
      <a href="#/my-day" aria-current={section === 'my-day' ? 'page' : undefined}>
        {w.enforce.dayNav}
      </a>
      {waiting > 0 && (
        <span class="waiting-count" aria-live="polite">
          {w.enforce.waitingCount(waiting)}
        </span>
      )}
      {refused > 0 && (
        <a href="#/my-day" class="waiting-count refused-count" aria-live="polite">
          {w.enforceQueue.refusedCount(refused)}
        </a>
      )}
    </>
  );
}

/**
 * Before signing out: when offences or checks of theirs still wait to be sent, the officer is told they stay on this
 * phone (sent at their next sign-in here, never under someone else's) and asked; false when they chose to stay.
 */
export async function enforcerMayLeave(personId: string): Promise<boolean> {
  const offences = (await queuedOffences(personId).catch(() => [])).filter((q) => q.state === 'waiting');
  const waiting = offences.length + (await queuedChecks(personId).catch(() => [])).length;
  return waiting === 0 || confirm(w.enforceQueue.signOutSure(waiting));
}

/** At load: a session that ended while the phone was offline takes the roadside pack with it. */
export const expireEnforcerPacks = () => expireRoadsidePacks().catch(() => false);

/** Signing out: the enforcer's pack leaves the phone with the session. */
export const forgetEnforcerPack = (personId: string) => forgetRoadsidePack(personId).catch(() => undefined);
/** The session ended, or the service says nobody is signed in: every roadside pack leaves the phone. */
export const forgetEnforcerPacks = () => forgetRoadsidePacks().catch(() => undefined);

function Answer({ checked }: { checked: Checked }) {
  const { answer, packFrom } = checked;
  const state = answer.sticker.state;
  return (
    <section class={`verdict ${state}`} aria-labelledby="answer-title" role="status">
      <h2 id="answer-title">{w.enforce.states[state] ?? state}</h2>
      {answer.vehicle && (
        <dl class="facts">
          <dt>{w.enforce.plate}</dt>
          <dd class="plate">{answer.vehicle.registrationNumber}</dd>
          {answer.vehicle.make && (
            <>
              <dt>{w.scan.make}</dt>
              <dd>{[answer.vehicle.make, answer.vehicle.model].filter(Boolean).join(' ')}</dd>
            </>
          )}
        </dl>
      )}
      {answer.documents.length > 0 && (
        <>
          <h3>{w.enforce.documents}</h3>
          <ul class="documents">
            {answer.documents.map((d) => (
              <li key={d.document} class={d.expired ? 'ended' : undefined}>
                {w.scan.until(w.scan.documents[d.document] ?? d.document, day(d.expiresOn), d.expired)}
              </li>
            ))}
          </ul>
        </>
      )}
      {answer.driver && (
        <p class="driver">{answer.driver.approvedDriver ? w.enforce.driverMatch : w.enforce.driverNoMatch}</p>
      )}
      {answer.vehicle && (
        <>
          <h3>{w.enforce.openNotices}</h3>
          {answer.openNotices.length === 0 ? (
            <p>{w.enforce.noNotices}</p>
          ) : (
            <ul class="documents">
              {answer.openNotices.map((n) => (
                <li key={n._id}>{w.enforce.notice(n.offences.join(', '), cedis(n.amountDue), day(n.dueAt))}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <p class="small">
        {packFrom ? w.enforce.fromPack(dateTime(packFrom)) : w.enforce.fromService(dateTime(answer.checkedAt))}
      </p>
    </section>
  );
}

/** Where the phone is, if it says within a few seconds (the officer chose to add it). */
const here = () =>
  new Promise<{ type: 'Point'; coordinates: [number, number] } | undefined>((resolve) => {
    if (!navigator.geolocation) return resolve(undefined);
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ type: 'Point', coordinates: [p.coords.longitude, p.coords.latitude] }),
      () => resolve(undefined),
      { timeout: 8000, maximumAge: 60_000 },
    );
  });

function OffenceForm({
  personId,
  vehicle,
  pack,
}: {
  personId: string;
  vehicle: { _id: string; registrationNumber: string; assembly: string | null };
  pack?: RoadsidePack;
}) {
  const [said, setSaid] = useState<{ words?: string; tone?: 'done' | 'info'; error?: unknown }>({});
  const busy = useRef(false);
  // A nationwide officer names the assembly where the offence was made (its catalogue applies): the vehicle's, unless
  // they choose another.
  const nationwide = pack?.nationwide === true;
  const [where, setWhere] = useState(vehicle.assembly ?? '');
  const [chosen, setChosen] = useState<{ assembly: string; catalogue?: Catalogue }>();
  useEffect(() => {
    if (!nationwide || !where) return;
    let live = true;
    void catalogueOf(personId, where).then((catalogue) => live && setChosen({ assembly: where, catalogue }));
    return () => {
      live = false;
    };
  }, [nationwide, where]);
  const catalogue = nationwide ? (chosen?.assembly === where ? chosen.catalogue : undefined) : pack?.catalogue;
  const choose = nationwide && (
    <>
      <label for="offence-assembly">{w.enforce.where}</label>
      <select id="offence-assembly" value={where} onChange={(e) => setWhere((e.target as HTMLSelectElement).value)}>
        {(pack?.assemblies ?? []).map((a) => (
          <option key={a._id} value={a._id}>
            {a.name}
          </option>
        ))}
      </select>
    </>
  );
  if (!catalogue)
    return (
      <section class="panel" aria-labelledby="record-title">
        <h2 id="record-title">{w.enforce.record}</h2>
        {choose}
        <p class="alert info">{w.enforce.noCatalogue}</p>
      </section>
    );
  return (
    <section class="panel" aria-labelledby="record-title">
      <h2 id="record-title">{w.enforce.record}</h2>
      {choose}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (busy.current) return;
          busy.current = true;
          const form = event.currentTarget as HTMLFormElement;
          const data = new FormData(form);
          try {
            const files = data.getAll('photos').filter((f): f is File => f instanceof File && f.size > 0);
            const place = data.get('place') === 'on' ? await here() : undefined;
            const entry: QueuedOffence = {
              key: crypto.randomUUID(),
              personId,
              vehicleId: vehicle._id,
              plate: vehicle.registrationNumber,
              codes: data.getAll('codes').map(String),
              ...(nationwide && { assembly: where }),
              ...(String(data.get('notes') ?? '').trim() && { notes: String(data.get('notes')).trim() }),
              madeAt: new Date().toISOString(),
              ...(place && { madeWhere: place }),
              photos: await Promise.all(files.map(downsized)),
              photosSent: 0,
              state: 'waiting',
            };
            // Kept first, with its key: whatever the signal does next, it is sent once (a lost answer included).
            await keepOffence(entry);
            await sendQueued(personId);
            const left = (await queuedOffences(personId)).find((q) => q.key === entry.key);
            form.reset();
            setSaid(
              !left
                ? { words: w.enforce.recorded(entry.plate), tone: 'done' }
                : left.state === 'refused'
                  ? { error: new Error(w.enforce.refused(entry.plate, refusal(left))) }
                  : { words: w.enforce.waiting(entry.plate), tone: 'info' },
            );
          } catch (error) {
            setSaid({ error });
          } finally {
            busy.current = false;
          }
        }}
      >
        <fieldset>
          <legend>{w.enforce.offences}</legend>
          {catalogue.offences.map((o) => (
            <label key={o.code} class="check">
              <input type="checkbox" name="codes" value={o.code} /> {o.code} {o.description} ({cedis(o.fine)})
            </label>
          ))}
        </fieldset>
        <label for="offence-notes">{w.enforce.notes}</label>
        <textarea id="offence-notes" name="notes" maxLength={500} rows={3} />
        <label class="check">
          <input type="checkbox" name="place" /> {w.enforce.place}
        </label>
        <label for="offence-photos">{w.enforce.photos}</label>
        <input id="offence-photos" name="photos" type="file" accept="image/*" capture="environment" multiple />
        <button type="submit" class="primary">
          {w.enforce.submit}
        </button>
      </form>
      {said.words && <Done tone={said.tone}>{said.words}</Done>}
      {said.error !== undefined && <ProblemMessage error={said.error} />}
    </section>
  );
}

/** The roadside check: a plate typed (or the QR scanned), what the driver gave, then the answer and the offence form. */
export function RoadsideCheck({ session }: { session: Session }) {
  const personId = session.person._id;
  const [camera, setCamera] = useState(false);
  const [checked, setChecked] = useState<Checked | undefined>();
  const [error, setError] = useState<unknown>();
  const [pack, setPack] = useState<RoadsidePack | undefined>();
  const [busy, setBusy] = useState(false);
  const driver = useRef<{ license?: string; phone?: string }>({});
  useEffect(() => {
    const read = () => void roadsidePack(personId).then(setPack, () => undefined);
    read();
    return onQueueChange(read);
  }, [personId]);

  const ask = async (q: Question) => {
    setBusy(true);
    setError(undefined);
    setChecked(undefined);
    try {
      const answer = await check(personId, { ...q, ...driver.current });
      if (answer) setChecked(answer);
      else setError(new Error(w.enforce.noPack));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const scanned = async (text: string) => {
    setCamera(false);
    const token = tokenIn(text);
    const local = token ? await verifyHere(token, (await currentKeys())?.keys ?? []) : undefined;
    if (!token || local?.genuine === false) return setError(new Error(w.enforce.notGenuineQr));
    await ask({ token, ...(local?.genuine && { tokenPlate: local.plate }) });
  };

  return (
    <>
      <style>{STYLE}</style>
      <Title>{w.enforce.title}</Title>
      <p>{w.enforce.intro}</p>
      <form
        class="panel"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          const text = (name: string) => String(data.get(name) ?? '').trim() || undefined;
          driver.current = { license: text('license'), phone: text('phone') };
          void ask({ plate: text('plate') ?? '' });
        }}
      >
        <label for="check-plate">{w.enforce.plate}</label>
        <input id="check-plate" name="plate" required autoComplete="off" autoCapitalize="characters" />
        <p class="help" id="driver-help">
          {w.enforce.driverHelp}
        </p>
        <label for="check-license">{w.enforce.license}</label>
        <input id="check-license" name="license" autoComplete="off" aria-describedby="driver-help" />
        <label for="check-phone">{w.enforce.phone}</label>
        <input id="check-phone" name="phone" type="tel" autoComplete="off" aria-describedby="driver-help" />
        <button type="submit" class="primary" aria-disabled={busy}>
          {w.enforce.check}
        </button>
      </form>
      {camera ? (
        <>
          <Camera found={(text) => void scanned(text)} failed={() => setCamera(false)} />
          <button type="button" class="button" onClick={() => setCamera(false)}>
            {w.enforce.stopScan}
          </button>
        </>
      ) : (
        <button type="button" class="button" onClick={() => setCamera(true)}>
          {w.enforce.scan}
        </button>
      )}
      {busy && (
        <p class="progress" role="status">
          {w.roadside.sending}
        </p>
      )}
      {error !== undefined && <ProblemMessage error={error} />}
      {checked && <Answer checked={checked} />}
      {checked?.answer.vehicle && (
        <OffenceForm key={checked.answer.checkedAt} personId={personId} vehicle={checked.answer.vehicle} pack={pack} />
      )}
    </>
  );
}

/** Why the service refused an offence: in the officer's language when the dashboard has words for its code. */
const refusal = (q: QueuedOffence) => (q.problemCode && w.enforceQueue.codes[q.problemCode]) || q.problem || '';

/** The officer's own day: their notices and checks since midnight, and what waits on this phone. */
export function MyDay({ session }: { session: Session }) {
  const day = useLoad(() => must(api.GET('/enforcement/my-day', {})), []);
  const [waiting, setWaiting] = useState<QueuedOffence[]>([]);
  useEffect(() => {
    const read = () => void queuedOffences(session.person._id).then(setWaiting);
    read();
    return onQueueChange(read);
  }, [session.person._id]);
  return (
    <>
      <Title>{w.enforce.dayTitle}</Title>
      {waiting.map((q) =>
        q.state === 'refused' ? (
          <section key={q.key} class="panel alert error refused" aria-labelledby={`q-${q.key}`}>
            <h2 id={`q-${q.key}`}>{q.plate}</h2>
            <p>{w.enforce.refused(q.plate, refusal(q))}</p>
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (confirm(w.enforceQueue.discardSure(q.plate))) void dropOffence(q.key);
              }}
            >
              {w.enforceQueue.discard}
            </button>
          </section>
        ) : null,
      )}
      {waiting.some((q) => q.state === 'waiting') && (
        <ul class="cards">
          {waiting
            .filter((q) => q.state === 'waiting')
            .map((q) => (
              <li key={q.key}>
                <span class="card-title">{q.plate}</span>
                <span>{w.enforce.waiting(q.plate)}</span>
              </li>
            ))}
        </ul>
      )}
      {day.error !== undefined && <ProblemMessage error={day.error} retry={day.reload} />}
      {!day.value && day.error === undefined && <Loading />}
      {day.value && (
        <>
          <h2>{w.enforce.dayNotices(day.value.notices.length)}</h2>
          {day.value.notices.length === 0 ? (
            <p>{w.enforce.nothingYet}</p>
          ) : (
            <ul class="cards">
              {day.value.notices.map((n) => (
                <li key={n._id}>
                  <span class="card-title">{n.registrationNumber}</span>
                  <span>
                    {n.offences.join(', ')} · {cedis(n.fine)} · {dateTime(n.madeAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <h2>{w.enforce.dayChecks(day.value.checks.length)}</h2>
          <ul class="cards">
            {day.value.checks.map((c) => (
              <li key={c._id}>
                <span class="card-title">{c.query ?? '—'}</span>
                <span>{dateTime(c.madeAt)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

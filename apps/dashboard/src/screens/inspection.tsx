import type { components } from '@transport/api-client';
import { INSPECTION_ITEMS, type InspectionItem } from '@transport/domain';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiProblem, must, seen, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { Entered, useOutbox } from '../offline/outbox';
import { draft, dropDraft, dropWaiting, keepDraft, keepWaiting, type Checklist, type Draft } from '../offline/store';
import { ActionForm, dateTime, Done, Loading, type ProblemContext } from '../ui';
import { sendPhotos } from '../offline/photos';
import {
  assertPhotosTaken,
  keepTaken,
  PhotoCapture,
  requiredSubjects,
  usePhotosRequired,
  type TakenPhotos,
} from './evidence';

/**
 * The ten items, in the order an inspector walks round the vehicle: the domain's own list (the API checks a checklist
 * against the same one). The contract's type must name exactly these: a missing or unknown item fails to compile.
 */
type ContractItem = keyof components['schemas']['InspectionChecklistResponse'];
const SAME_ITEMS: [ContractItem, InspectionItem] extends [InspectionItem, ContractItem] ? true : never = true;
void SAME_ITEMS;

/** The items the vehicle's last inspection failed, in words (none when it passed, or was never inspected). */
export function failedItems(v: Vehicle): string[] {
  return INSPECTION_ITEMS.filter((item) => v.inspectionChecklist?.[item] === false).map((item) => w.checklist[item]);
}

/** What the vehicle's last inspection decided, and until when a free re-inspection is open, in words ('' if passed). */
export function outcomeWords(v: Vehicle): string {
  const outcome = v.inspectionOutcome as keyof typeof w.vehicle.outcome | undefined;
  if (!outcome || outcome === 'passed') return '';
  const due = v.reinspectionDueBy ? ` ${w.vehicle.reinspectBy(dateTime(v.reinspectionDueBy))}` : '';
  return `${w.vehicle.outcome[outcome]}${due}`;
}

/** A failed item in words with its defect note, if it has one ("Brakes: front pads worn"). */
export const withNote = (item: string, note: string | undefined) => (note ? `${item}: ${note}` : item);

/** Where the phone is, as a GeoJSON point; undefined when it cannot say (refused, no fix within 10 s). */
function position(): Promise<{ type: 'Point'; coordinates: [number, number] } | undefined> {
  return new Promise((resolve) => {
    if (!('geolocation' in navigator)) return resolve(undefined);
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ type: 'Point', coordinates: [p.coords.longitude, p.coords.latitude] }),
      () => resolve(undefined),
      { timeout: 10_000, maximumAge: 60_000 },
    );
  });
}

/** The grades a failed item may have, worst first (the API's; a failed item left ungraded is major). */
const GRADES = ['dangerous', 'major', 'minor'] as const;

/** The checklist, notes and grades as the form holds them. */
function typed(data: FormData): Checklist {
  return {
    checklist: Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, data.has(item)])),
    grades: Object.fromEntries(
      INSPECTION_ITEMS.filter((item) => !data.has(item)).map((item) => [
        item,
        String(data.get(`grade-${item}`) ?? 'major'),
      ]),
    ),
    defects: Object.fromEntries(
      INSPECTION_ITEMS.filter((item) => !data.has(item))
        .map((item) => [item, String(data.get(`defect-${item}`) ?? '').trim()])
        .filter(([, note]) => note !== ''),
    ),
  };
}

/**
 * An inspector's form: tick each item that passed; a note on what is wrong with any failed item (kept with the
 * inspection, shown in the history) in a section that stays folded until wanted, so the checklist stays short on a
 * phone. The notes offered follow the ticks as they change.
 *
 * At the roadside: what is typed is kept on the phone as it is typed (restored after the session ends and the person
 * signs in again), and an inspection recorded without a signal waits on the phone to be sent (offline/outbox.tsx).
 */
export function InspectionForm(props: { v: Vehicle; reload: () => void; problem: ProblemContext; personId: string }) {
  const { v, personId } = props;
  // The checklist in progress kept on this phone (null: none); read again after a review brings one back.
  const [kept, setKept] = useState<Draft | null | undefined>(undefined);
  const [round, setRound] = useState(0);
  useEffect(() => {
    draft(v._id, personId).then(
      (found) => setKept(found ?? null),
      () => setKept(null),
    );
  }, [v._id, personId, round]);
  const entries = useOutbox(personId);
  const mine = entries.find((e) => e.vehicleId === v._id);
  // Sent from the outbox while this screen is open: show the vehicle as the service now has it.
  const [sent, setSent] = useState(false);
  const was = useRef(mine);
  useEffect(() => {
    if (was.current?.state === 'waiting' && !mine) {
      setSent(true);
      props.reload();
    }
    was.current = mine;
  }, [mine]);

  if (kept === undefined) return <Loading />;
  return (
    <>
      {sent && !mine && <Done>{w.offline.sent}</Done>}
      {mine?.state === 'waiting' && <p class="alert info waiting">{w.offline.waiting(dateTime(mine.madeAt))}</p>}
      {mine && mine.state !== 'waiting' && (
        <section class="alert error" aria-labelledby="kept-problem">
          <h2 id="kept-problem" class="alert-title">
            {mine.state === 'conflict' ? w.offline.conflictTitle : w.offline.refusedTitle}
          </h2>
          <p>{mine.state === 'conflict' ? w.offline.conflict : mine.problem}</p>
          <Entered entry={mine} />
          <p class="actions">
            <button
              type="button"
              class="primary"
              onClick={async () => {
                // Back into the form, against the vehicle as it is now: the inspector records it again, knowingly.
                await keepDraft({ vehicleId: v._id, personId, checklist: mine.checklist, defects: mine.defects });
                await dropWaiting(personId, v._id);
                setKept(undefined);
                setRound((r) => r + 1);
              }}
            >
              {w.offline.review}
            </button>{' '}
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (confirm(w.offline.discardSure)) void dropWaiting(personId, v._id);
              }}
            >
              {w.offline.discard}
            </button>
          </p>
        </section>
      )}
      {/* Not keyed by the revision: the words of a save stay after the record reloads. While a kept inspection needs the
          inspector (a conflict, a refusal), the form stays away: its button would record the vehicle's earlier ticks,
          not what was entered; "Review and record again" brings what was entered back into it. */}
      {(!mine || mine.state === 'waiting') && (
        <Checklist key={round} {...props} kept={kept ?? undefined} waiting={mine} forget={() => setKept(null)} />
      )}
    </>
  );
}

function Checklist({
  v,
  reload,
  problem,
  personId,
  kept,
  waiting,
  forget,
}: {
  v: Vehicle;
  reload: () => void;
  problem: ProblemContext;
  personId: string;
  kept?: Draft;
  /** The inspection kept on this phone, waiting to send: the form shows what it holds, not the vehicle's last ticks. */
  waiting?: Checklist;
  /** The kept checklist is sent or waiting: the form no longer starts from it. */
  forget: () => void;
}) {
  const checklist = useRef<HTMLFieldSetElement>(null);
  const [unticked, setUnticked] = useState<string[]>([]);
  const [notesOpen, setNotesOpen] = useState(kept !== undefined && Object.keys(kept.defects).length > 0);
  // Folded like the notes: a failed item left ungraded is major (the API's rule), so the checklist stays short on a
  // phone; open at once when a kept inspection graded an item otherwise.
  const [gradesOpen, setGradesOpen] = useState(
    Object.values({ ...kept?.grades, ...waiting?.grades }).some((g) => g !== undefined && g !== 'major'),
  );
  const read = () =>
    setUnticked(
      INSPECTION_ITEMS.filter(
        (item) => !checklist.current?.querySelector<HTMLInputElement>(`input[name="${item}"]`)?.checked,
      ),
    );
  // After a save the form is reset to the reloaded record's ticks: read them again.
  useEffect(read, [v.__v]);
  const keep = (event: Event) => {
    const form = (event.currentTarget as HTMLElement).closest('form');
    if (form) void keepDraft({ vehicleId: v._id, personId, ...typed(new FormData(form)) }).catch(() => undefined);
  };
  const ticked = (item: string) =>
    waiting?.checklist[item] ?? kept?.checklist[item] ?? v.inspectionChecklist?.[item as InspectionItem] ?? false;
  const note = (item: string) => waiting?.defects[item] ?? kept?.defects[item] ?? v.inspectionDefects?.[item] ?? '';
  const grade = (item: string) =>
    waiting?.grades?.[item] ?? kept?.grades?.[item] ?? v.inspectionGrades?.[item] ?? 'major';
  const plate = v.registrationNumber ?? v._id;
  // The photos taken in this form (drawn on the phone), and whether the assembly requires them.
  const [taken, setTaken] = useState<TakenPhotos>({});
  const photosRequired = usePhotosRequired(v.assembly as string | undefined);
  const photoSubjects = requiredSubjects(true, unticked, {});

  return (
    <ActionForm
      label={w.vehicle.inspection}
      help={w.vehicle.inspectionHelp}
      submit={w.vehicle.saveInspection}
      done={w.vehicle.inspectionSaved}
      problem={problem}
      action={async (data) => {
        const entry = typed(data);
        const failedNow = INSPECTION_ITEMS.filter((item) => !entry.checklist[item]);
        if (photosRequired) assertPhotosTaken(requiredSubjects(true, failedNow, entry.grades ?? {}), taken);
        // One key for this inspection, sent now and with every later try from the outbox (offline/store.ts).
        const idempotencyKey = crypto.randomUUID();
        // When it is made: sent with it now, or later from the outbox (the service keeps it beside when it arrived).
        const madeAt = new Date().toISOString();
        // Where, only when the inspector ticked it (and the phone's permission prompt allowed it).
        const madeWhere = data.has('where') ? await position() : undefined;
        // Its photos wait on the phone under its key, sent once it is accepted (offline/photos.ts); kept only once it
        // is accepted or kept itself (a refused inspection's photos stay in the form).
        const keepItsPhotos = async () => {
          await keepTaken(taken, requiredSubjects(true, failedNow, {}), {
            personId,
            vehicleId: v._id,
            inspectionKey: idempotencyKey,
            where: madeWhere?.coordinates,
          });
          setTaken({});
        };
        const keepOnPhone = async () => {
          if (v.__v === undefined) throw new Error(`The record ${v._id} came without its revision (__v)`);
          await keepItsPhotos();
          await keepWaiting({
            ...entry,
            vehicleId: v._id,
            plate: v.registrationNumber ?? v._id,
            personId,
            revision: v.__v,
            madeAt,
            ...(madeWhere && { madeWhere }),
            idempotencyKey,
            state: 'waiting',
          });
          await dropDraft(personId, v._id);
          forget();
          // Kept, not failed: in the neutral tone of "waiting", not the red of an error or a failure.
          const withdraws = v.approved && Object.values(entry.checklist).includes(false);
          return {
            words: withdraws
              ? `${w.offline.keptOffline} ${w.roadside.withdrawnWhenSent(plate)}`
              : w.offline.keptOffline,
            tone: 'info' as const,
          };
        };
        if (!navigator.onLine) return keepOnPhone();
        let saved: Vehicle;
        try {
          saved = await must(
            api.POST('/vehicles/{id}/inspect', {
              params: { ...seen(v).params, header: { ...seen(v).params.header, 'Idempotency-Key': idempotencyKey } },
              body: {
                inspectionChecklist: entry.checklist as Record<InspectionItem, boolean>,
                madeAt,
                ...(madeWhere && { madeWhere }),
                ...(Object.keys(entry.defects).length > 0 ? { defects: entry.defects } : {}),
                ...(entry.grades && Object.keys(entry.grades).length > 0
                  ? { grades: entry.grades as Record<string, 'dangerous' | 'major' | 'minor'> }
                  : {}),
              },
            }),
          );
        } catch (error) {
          if (error instanceof ApiProblem && error.status === 0) return keepOnPhone();
          throw error;
        }
        await dropDraft(personId, v._id).catch(() => undefined);
        await keepItsPhotos();
        void sendPhotos(personId);
        forget();
        reload();
        const failedWords = failedItems(saved);
        if (v.approved && !saved.approved)
          return { words: w.roadside.withdrawn(plate, failedWords.join(', ')), tone: 'warn' };
        const outcome = outcomeWords(saved);
        if (saved.inspectionOutcome === 'passedWithAdvice') return { words: `${w.vehicle.inspectionSaved} ${outcome}` };
        return failedWords.length > 0
          ? { words: `${w.vehicle.inspectionFailed(failedWords.join(', '))} ${outcome}`.trim(), tone: 'warn' }
          : { words: w.vehicle.inspectionSaved };
      }}
    >
      {kept && <p class="alert done">{w.offline.restored}</p>}
      <div onInput={keep} onChange={keep}>
        <fieldset class="checklist" ref={checklist} onChange={read}>
          <legend>{w.vehicle.inspection}</legend>
          {INSPECTION_ITEMS.map((item) => (
            <label key={item} class="check">
              <input type="checkbox" name={item} defaultChecked={ticked(item)} />
              {w.checklist[item]}
            </label>
          ))}
        </fieldset>
        {unticked.length > 0 && (
          <details
            class="grades"
            open={gradesOpen}
            onToggle={(event) => setGradesOpen((event.currentTarget as HTMLDetailsElement).open)}
          >
            <summary>{w.vehicle.gradesLegend}</summary>
            {gradesOpen && (
              <fieldset class="grades">
                <legend>{w.vehicle.gradesLegend}</legend>
                <p class="help">{w.vehicle.gradesHelp}</p>
                {unticked.map((item) => (
                  <div key={item}>
                    <label for={`grade-${item}`}>{w.vehicle.gradeOf(w.checklist[item as InspectionItem])}</label>
                    {/* A select's default is its selected option: a defaultValue prop on a select is only an
                        attribute, which left every failed item on the first option, dangerous. */}
                    <select id={`grade-${item}`} name={`grade-${item}`}>
                      {GRADES.map((g) => (
                        <option key={g} value={g} selected={g === grade(item)}>
                          {w.vehicle.grade[g]}
                        </option>
                      ))}
                    </select>
                  </div>
                ))}
              </fieldset>
            )}
          </details>
        )}
        {unticked.length > 0 && (
          <details
            class="defects"
            open={notesOpen}
            onToggle={(event) => setNotesOpen((event.currentTarget as HTMLDetailsElement).open)}
          >
            <summary>{w.vehicle.defectNotes}</summary>
            {notesOpen && (
              <>
                <p class="help">{w.vehicle.defectHelp}</p>
                {unticked.map((item) => (
                  <div key={item}>
                    <label for={`defect-${item}`}>{w.vehicle.defectNote(w.checklist[item])}</label>
                    <input
                      id={`defect-${item}`}
                      name={`defect-${item}`}
                      maxLength={500}
                      autocomplete="off"
                      defaultValue={note(item)}
                    />
                  </div>
                ))}
              </>
            )}
          </details>
        )}
      </div>
      <PhotoCapture subjects={photoSubjects} required={photosRequired} taken={taken} setTaken={setTaken} />
      {/* Before saving: a failure on an approved vehicle withdraws its approval and its sticker. */}
      {v.approved && unticked.length > 0 && (
        <p class="alert warn" id="withdraw-warning">
          {w.roadside.withdrawWarning(plate)}
        </p>
      )}
      <label class="check where">
        <input type="checkbox" name="where" />
        {w.vehicle.sayWhere}
      </label>
    </ActionForm>
  );
}

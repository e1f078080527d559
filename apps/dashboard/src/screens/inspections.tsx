import type { components } from '@transport/api-client';
import { INSPECTION_ITEMS } from '@transport/domain';
import { api, must, seen, type Session, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { useWaitingPhotos } from '../offline/photos';
import { ActionForm, dateTime, Loading, ProblemMessage, useLoad, type Outcome, type ProblemContext } from '../ui';
import { subjectWords } from './evidence';
import { ReinspectionForm, reinspectionOpen } from './reinspection';

type InspectionRecord = components['schemas']['InspectionRecordResponse'];
type Photo = components['schemas']['PhotoResponse'];

/** The vehicle's tasks of issue 46: the free re-inspection (an inspector, while open) and its inspections. */
export function evidenceTasks(props: {
  v: Vehicle;
  session: Session;
  reload: () => void;
  problem: ProblemContext;
  /** The vehicle screen's notice: a passing re-inspection closes its window and its task with it. */
  announce: (outcome: Outcome) => void;
}) {
  const { v, session } = props;
  const role = session.person.role;
  const personId = session.person._id;
  const tasks: { key: string; label: string; part: preact.JSX.Element }[] = [];
  if (role === 'inspector' && reinspectionOpen(v))
    tasks.push({
      key: 'reinspect',
      label: w.evidence.reinspection,
      part: (
        <ReinspectionForm
          v={v}
          reload={props.reload}
          problem={props.problem}
          personId={personId}
          announce={props.announce}
        />
      ),
    });
  if (role === 'inspector' || role === 'approver' || role === 'admin')
    tasks.push({ key: 'inspections', label: w.evidence.inspections, part: <Inspections {...props} /> });
  return tasks;
}

/**
 * Each inspection and re-inspection of the vehicle, the last first: its outcome, its photos (each image read with
 * the session: never a public address), and its appeal, lodged by any staff and decided by an approver who took no
 * part (issue 46, items 3 and 4).
 */
function Inspections({ v, session, reload, problem }: Parameters<typeof evidenceTasks>[0]) {
  const me = session.person._id;
  const path = { params: { path: { id: v._id } } };
  const loaded = useLoad(
    () =>
      Promise.all([
        must(api.GET('/vehicles/{id}/inspections', path)),
        must(api.GET('/vehicles/{id}/inspection-photos', path)),
      ]),
    [v._id, v.__v],
  );
  const waiting = useWaitingPhotos(me, v._id);
  const again = () => {
    loaded.reload();
    reload();
  };
  if (loaded.error !== undefined)
    return (
      <section class="panel" aria-labelledby="inspections">
        <h2 id="inspections">{w.evidence.inspections}</h2>
        <ProblemMessage error={loaded.error} retry={loaded.reload} />
      </section>
    );
  if (!loaded.value) return <Loading />;
  const [records, photos] = loaded.value;
  // The forms for the first record each applies to (one of each on the screen).
  const appealable = records.find(
    (r) => (r.outcome === 'failed' || r.outcome === 'prohibited') && !r.appeal && r.kind === 'inspection',
  );
  const undecided = records.find((r) => r.appeal && !r.appeal.decision);
  const mayDecide =
    session.person.role === 'approver' &&
    undecided &&
    undecided.inspectedBy !== me &&
    undecided.appeal?.lodgedBy !== me;
  return (
    <section class="panel" aria-labelledby="inspections">
      <h2 id="inspections">{w.evidence.inspections}</h2>
      {waiting.filter((p) => !p.problem).length > 0 && (
        <p class="alert info">{w.evidence.waiting(waiting.filter((p) => !p.problem).length)}</p>
      )}
      {waiting
        .filter((p) => p.problem)
        .map((p) => (
          <p key={p.id} class="alert error">
            {w.evidence.refused(p.problem ?? '')}
          </p>
        ))}
      {records.length === 0 && <p class="empty">{w.evidence.noInspections}</p>}
      <ol class="inspections">
        {records.map((r) => (
          <Record key={r._id} v={v} record={r} photos={photos.filter((p) => p.inspectionKey === r.idempotencyKey)} />
        ))}
      </ol>
      {appealable && session.person.role !== 'admin' && (
        <ActionForm
          label={w.evidence.lodge}
          help={w.evidence.lodgeHelp}
          submit={w.evidence.lodge}
          done={w.evidence.lodged}
          problem={problem}
          action={async (data) => {
            await must(
              api.POST('/vehicles/{id}/inspections/{inspectionId}/appeal', {
                params: { path: { id: v._id, inspectionId: appealable._id } },
                body: { grounds: String(data.get('grounds') ?? '').trim() },
              }),
            );
            again();
          }}
        >
          <label for="appeal-grounds">{w.evidence.grounds}</label>
          <textarea id="appeal-grounds" name="grounds" required maxLength={1000} rows={3} />
        </ActionForm>
      )}
      {mayDecide && (
        <ActionForm
          label={w.evidence.decide}
          submit={w.evidence.decide}
          done={w.evidence.decided}
          problem={problem}
          action={async (data) => {
            await must(
              api.POST('/vehicles/{id}/inspections/{inspectionId}/appeal/decision', {
                params: {
                  path: { id: v._id, inspectionId: undecided._id },
                  header: seen(v).params.header,
                },
                body: { decision: data.get('decision') === 'reinspection' ? 'reinspection' : 'upheld' },
              }),
            );
            again();
          }}
        >
          <fieldset>
            <legend>{w.evidence.decide}</legend>
            <label class="check">
              <input type="radio" name="decision" value="upheld" required />
              {w.evidence.upheld}
            </label>
            <label class="check">
              <input type="radio" name="decision" value="reinspection" />
              {w.evidence.reinspect}
            </label>
          </fieldset>
        </ActionForm>
      )}
    </section>
  );
}

function Record({ v, record, photos }: { v: Vehicle; record: InspectionRecord; photos: Photo[] }) {
  const outcome = w.vehicle.outcome[record.outcome];
  const failed = INSPECTION_ITEMS.filter((item) => record.inspectionChecklist[item] === false).map((item) => {
    const grade = (record.grades as Record<string, string>)[item] ?? 'major';
    return `${w.checklist[item]} (${w.vehicle.grade[grade as 'major']})`;
  });
  const appeal = record.appeal;
  return (
    <li class="inspection-record">
      <h3>{w.evidence.recordTitle(w.evidence.kind[record.kind], dateTime(record.madeAt), outcome)}</h3>
      {failed.length > 0 && <p class="failed">{failed.join('; ')}</p>}
      {record.reinspectionDueBy && <p class="muted">{w.evidence.windowEnds(dateTime(record.reinspectionDueBy))}</p>}
      {appeal && <p class="appeal">{w.evidence.appealLodged(dateTime(appeal.lodgedAt), appeal.grounds)}</p>}
      {appeal?.decision && <p class="appeal">{w.evidence.decision[appeal.decision]}</p>}
      <h4>{w.evidence.photosOf}</h4>
      {photos.length === 0 ? (
        <p class="muted">{w.evidence.noPhotos}</p>
      ) : (
        <ul class="photo-strip">
          {photos.map((p) => {
            const what = subjectWords(
              p.kind === 'item' ? { kind: 'item', item: p.item ?? '' } : { kind: p.kind as 'plate' },
            );
            return (
              <li key={p._id}>
                {/* Read with the session's cookie, like every request of the page: the API checks who asks. */}
                <a href={`/vehicles/${v._id}/inspection-photos/${p._id}`} target="_blank" rel="noopener">
                  <img
                    src={`/vehicles/${v._id}/inspection-photos/${p._id}`}
                    alt={what}
                    width={96}
                    height={96}
                    loading="lazy"
                  />
                </a>
                <span class="muted">{what}</span>
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

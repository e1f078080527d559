import { INSPECTION_ITEMS, type InspectionItem } from '@transport/domain';
import { useState } from 'preact/hooks';
import { api, ApiProblem, must, seen, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { sendPhotos } from '../offline/photos';
import { keepWaiting } from '../offline/store';
import { ActionForm, dateTime, type Outcome, type ProblemContext } from '../ui';
import {
  assertPhotosTaken,
  keepTaken,
  PhotoCapture,
  requiredSubjects,
  usePhotosRequired,
  type TakenPhotos,
} from './evidence';
import { failedItems, outcomeWords } from './inspection';

const GRADES = ['dangerous', 'major', 'minor'] as const;

/** Whether the vehicle's free re-inspection is open now (its window has not ended). */
export const reinspectionOpen = (v: Vehicle, now = Date.now()) =>
  v.reinspectionDueBy !== undefined && Date.parse(v.reinspectionDueBy) >= now;

/**
 * The free re-inspection (issue 46, item 2): only the items the last inspection failed, each ticked when fixed, a
 * grade and a photo for each still failing; its own Idempotency-Key, and kept on the phone without a signal like an
 * inspection (the outbox sends it to POST /vehicles/{id}/reinspect).
 */
export function ReinspectionForm(props: {
  v: Vehicle;
  reload: () => void;
  problem: ProblemContext;
  personId: string;
  announce: (outcome: Outcome) => void;
}) {
  const { v, personId } = props;
  const items = INSPECTION_ITEMS.filter((item) => v.inspectionChecklist?.[item] === false);
  const [stillFailing, setStillFailing] = useState<InspectionItem[]>(items);
  const [taken, setTaken] = useState<TakenPhotos>({});
  const photosRequired = usePhotosRequired(v.assembly as string | undefined);
  const read = (form: HTMLFormElement | null) =>
    form && setStillFailing(items.filter((item) => !new FormData(form).has(item)));
  return (
    <ActionForm
      label={w.evidence.reinspection}
      help={w.evidence.reinspectionHelp(v.reinspectionDueBy ? dateTime(v.reinspectionDueBy) : '')}
      submit={w.evidence.saveReinspection}
      done={w.evidence.reinspectionSaved}
      problem={props.problem}
      announce={props.announce}
      action={async (data) => {
        const checklist = Object.fromEntries(items.map((item) => [item, data.has(item)]));
        const failing = items.filter((item) => !checklist[item]);
        const grades = Object.fromEntries(
          failing.map((item) => [item, String(data.get(`regrade-${item}`) ?? 'major')]),
        );
        if (photosRequired) assertPhotosTaken(requiredSubjects(false, failing, grades), taken);
        const idempotencyKey = crypto.randomUUID();
        const madeAt = new Date().toISOString();
        const keepItsPhotos = async () => {
          await keepTaken(taken, requiredSubjects(false, failing, {}), {
            personId,
            vehicleId: v._id,
            inspectionKey: idempotencyKey,
          });
          setTaken({});
        };
        const keepOnPhone = async () => {
          if (v.__v === undefined) throw new Error(`The record ${v._id} came without its revision (__v)`);
          await keepItsPhotos();
          await keepWaiting({
            checklist,
            defects: {},
            grades,
            route: 'reinspect',
            vehicleId: v._id,
            plate: v.registrationNumber ?? v._id,
            personId,
            revision: v.__v,
            madeAt,
            idempotencyKey,
            state: 'waiting',
          });
          return { words: w.offline.keptOffline, tone: 'info' as const };
        };
        if (!navigator.onLine) return keepOnPhone();
        let saved: Vehicle;
        try {
          saved = await must(
            api.POST('/vehicles/{id}/reinspect', {
              params: { ...seen(v).params, header: { ...seen(v).params.header, 'Idempotency-Key': idempotencyKey } },
              body: {
                inspectionChecklist: checklist as Record<InspectionItem, boolean>,
                madeAt,
                ...(failing.length > 0 && { grades: grades as Record<string, 'dangerous' | 'major' | 'minor'> }),
              },
            }),
          );
        } catch (error) {
          if (error instanceof ApiProblem && error.status === 0) return keepOnPhone();
          throw error;
        }
        await keepItsPhotos();
        void sendPhotos(personId);
        props.reload();
        const failed = failedItems(saved);
        return failed.length > 0
          ? { words: `${w.vehicle.inspectionFailed(failed.join(', '))} ${outcomeWords(saved)}`.trim(), tone: 'warn' }
          : { words: w.evidence.reinspectionSaved };
      }}
    >
      <fieldset class="checklist" onChange={(event) => read((event.currentTarget as HTMLElement).closest('form'))}>
        <legend>{w.evidence.reinspection}</legend>
        {items.map((item) => (
          <label key={item} class="check">
            <input type="checkbox" name={item} />
            {w.checklist[item]}
          </label>
        ))}
      </fieldset>
      {stillFailing.length > 0 && (
        <fieldset class="grades">
          <legend>{w.vehicle.gradesLegend}</legend>
          {stillFailing.map((item) => (
            <div key={item}>
              <label for={`regrade-${item}`}>{w.vehicle.gradeOf(w.checklist[item])}</label>
              <select id={`regrade-${item}`} name={`regrade-${item}`}>
                {GRADES.map((g) => (
                  <option key={g} value={g} selected={g === (v.inspectionGrades?.[item] ?? 'major')}>
                    {w.vehicle.grade[g]}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      )}
      {stillFailing.length > 0 && (
        <PhotoCapture
          subjects={requiredSubjects(false, stillFailing, {})}
          required={photosRequired}
          taken={taken}
          setTaken={setTaken}
        />
      )}
    </ActionForm>
  );
}

import type { components } from '@transport/api-client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, must, seen, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { ActionForm, type ProblemContext } from '../ui';

/**
 * The ten items, in the order an inspector walks round the vehicle. The contract gives their names as a type only, so
 * the list is written here and checked against it: a missing or unknown item fails to compile.
 */
type InspectionItem = keyof components['schemas']['InspectionChecklistResponse'];
export const INSPECTION_ITEMS = [
  'spareTire',
  'headlights',
  'tailLights',
  'turnSignals',
  'brakeLights',
  'fireExtinguisher',
  'emergencySignals',
  'seatBelts',
  'brakes',
  'licensePlate',
] as const satisfies readonly InspectionItem[];
const EVERY_ITEM: Exclude<InspectionItem, (typeof INSPECTION_ITEMS)[number]> extends never ? true : never = true;
void EVERY_ITEM;

/** The items the vehicle's last inspection failed, in words (none when it passed, or was never inspected). */
export function failedItems(v: Vehicle): string[] {
  return INSPECTION_ITEMS.filter((item) => v.inspectionChecklist?.[item] === false).map((item) => w.checklist[item]);
}

/** A failed item in words with its defect note, if it has one ("Brakes: front pads worn"). */
export const withNote = (item: string, note: string | undefined) => (note ? `${item}: ${note}` : item);

/**
 * An inspector's form: tick each item that passed; a note on what is wrong with any failed item (kept with the
 * inspection, shown in the history) in a section that stays folded until wanted, so the checklist stays short on a
 * phone. The notes offered follow the ticks as they change.
 */
export function InspectionForm({ v, reload, problem }: { v: Vehicle; reload: () => void; problem: ProblemContext }) {
  const checklist = useRef<HTMLFieldSetElement>(null);
  const [unticked, setUnticked] = useState<string[]>([]);
  const [notesOpen, setNotesOpen] = useState(false);
  const read = () =>
    setUnticked(
      INSPECTION_ITEMS.filter(
        (item) => !checklist.current?.querySelector<HTMLInputElement>(`input[name="${item}"]`)?.checked,
      ),
    );
  // After a save the form is reset to the reloaded record's ticks: read them again.
  useEffect(read, [v.__v]);

  return (
    <ActionForm
      label={w.vehicle.inspection}
      help={w.vehicle.inspectionHelp}
      submit={w.vehicle.saveInspection}
      done={w.vehicle.inspectionSaved}
      problem={problem}
      action={async (data) => {
        const inspectionChecklist = Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, data.has(item)]));
        const defects = Object.fromEntries(
          INSPECTION_ITEMS.filter((item) => !data.has(item))
            .map((item) => [item, String(data.get(`defect-${item}`) ?? '').trim()])
            .filter(([, note]) => note !== ''),
        );
        const saved = await must(
          api.POST('/vehicles/{id}/inspect', {
            ...seen(v),
            body: {
              inspectionChecklist: inspectionChecklist as Record<InspectionItem, boolean>,
              ...(Object.keys(defects).length > 0 ? { defects } : {}),
            },
          }),
        );
        reload();
        const failedNow = failedItems(saved);
        return failedNow.length > 0
          ? { words: w.vehicle.inspectionFailed(failedNow.join(', ')), tone: 'warn' }
          : { words: w.vehicle.inspectionSaved };
      }}
    >
      <fieldset class="checklist" ref={checklist} onChange={read}>
        <legend>{w.vehicle.inspection}</legend>
        {INSPECTION_ITEMS.map((item) => (
          <label key={item} class="check">
            <input type="checkbox" name={item} defaultChecked={v.inspectionChecklist?.[item] ?? false} />
            {w.checklist[item]}
          </label>
        ))}
      </fieldset>
      {unticked.length > 0 && (
        <details class="defects" onToggle={(event) => setNotesOpen((event.currentTarget as HTMLDetailsElement).open)}>
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
                    defaultValue={v.inspectionDefects?.[item] ?? ''}
                  />
                </div>
              ))}
            </>
          )}
        </details>
      )}
    </ActionForm>
  );
}

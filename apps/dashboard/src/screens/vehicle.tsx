import type { components } from '@transport/api-client';
import { api, must, page, seen, type Session, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { ActionForm, day, Loading, ProblemMessage, Title, useLoad, useNotice } from '../ui';
import { History } from './history';

/**
 * The ten items, in the order an inspector walks round the vehicle. The contract gives their names as a type only, so
 * the list is written here and checked against it: a missing or unknown item fails to compile.
 */
type InspectionItem = keyof components['schemas']['InspectionChecklistResponse'];
const INSPECTION_ITEMS = [
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

const path = (id: string) => ({ params: { path: { id } } });
/** A date input's value (YYYY-MM-DD) or undefined when left empty. */
const dateField = (data: FormData, name: string) => (String(data.get(name) ?? '') || undefined) as string | undefined;

export function VehicleScreen({ id, session }: { id: string; session: Session }) {
  const vehicle = useLoad(() => must(api.GET('/vehicles/{id}', path(id))), [id]);
  const { notice, announce } = useNotice();
  if (vehicle.error !== undefined) return <ProblemMessage error={vehicle.error} />;
  if (!vehicle.value) return <Loading />;
  const v = vehicle.value;
  const role = session.person.role;
  const reload = vehicle.reload;

  return (
    <>
      <Title>{w.vehicle.title(v.registrationNumber ?? v._id)}</Title>
      {notice}
      <Facts v={v} />
      {v.approved && (
        <p>
          <a href={`/vehicles/${id}/certificate`} target="_blank" rel="noopener">
            {w.scan.print}
          </a>
        </p>
      )}
      {role === 'inspector' && (
        <ActionForm
          announce={announce}
          label={w.vehicle.inspection}
          help={w.vehicle.inspectionHelp}
          submit={w.vehicle.saveInspection}
          done={w.vehicle.inspectionSaved}
          action={async (data) => {
            const inspectionChecklist = Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, data.has(item)]));
            await must(
              api.POST('/vehicles/{id}/inspect', {
                ...seen(v),
                body: {
                  inspectionChecklist: inspectionChecklist as Record<(typeof INSPECTION_ITEMS)[number], boolean>,
                },
              }),
            );
            reload();
          }}
        >
          <fieldset class="checklist">
            <legend>{w.vehicle.inspection}</legend>
            {INSPECTION_ITEMS.map((item) => (
              <label key={item} class="check">
                <input type="checkbox" name={item} defaultChecked={v.inspectionChecklist?.[item] ?? false} />
                {w.checklist[item]}
              </label>
            ))}
          </fieldset>
        </ActionForm>
      )}
      {role === 'approver' && !v.approved && (
        <ActionForm
          announce={announce}
          label={w.vehicle.approval}
          help={w.vehicle.approvalHelp}
          submit={w.vehicle.approve}
          done={w.vehicle.approvedNow}
          action={async () => {
            await must(api.POST('/vehicles/{id}/approve', seen(v)));
            reload();
          }}
        />
      )}
      {(role === 'inspector' || role === 'approver') && (
        <>
          <ActionForm
            announce={announce}
            label={w.vehicle.renewals}
            help={w.vehicle.renewalsHelp}
            submit={w.vehicle.saveRenewal}
            done={w.vehicle.renewed}
            action={async (data) => {
              await must(
                api.POST('/vehicles/{id}/renew', {
                  ...seen(v),
                  body: {
                    roadWorthyExpiryDate: dateField(data, 'roadWorthy'),
                    insuranceExpiryDate: dateField(data, 'insurance'),
                  },
                }),
              );
              reload();
            }}
          >
            <label for="roadWorthy">{w.vehicle.roadWorthy}</label>
            <input id="roadWorthy" name="roadWorthy" type="date" />
            <label for="insurance">{w.vehicle.insurance}</label>
            <input id="insurance" name="insurance" type="date" />
          </ActionForm>
          <Correction v={v} reload={reload} announce={announce} />
          <Links v={v} reload={reload} announce={announce} />
        </>
      )}
      <History entity="vehicle" id={id} me={session.person._id} version={v.__v} />
    </>
  );
}

function Facts({ v }: { v: Vehicle }) {
  const failed = INSPECTION_ITEMS.filter((item) => v.inspectionChecklist && v.inspectionChecklist[item] === false);
  return (
    <section class="panel" aria-labelledby="details">
      <h2 id="details">{w.vehicle.details}</h2>
      <p class="badges">
        <span class={v.inspected ? 'badge ok' : 'badge'}>
          {v.inspected ? w.vehicle.inspected : w.vehicle.notInspected}
        </span>
        <span class={v.approved ? 'badge ok' : 'badge'}>{v.approved ? w.vehicle.approved : w.vehicle.notApproved}</span>
      </p>
      <dl class="facts">
        <dt>{w.vehicle.make}</dt>
        <dd>
          {v.make} {v.model}
        </dd>
        <dt>{w.vehicle.color}</dt>
        <dd>{v.color}</dd>
        <dt>{w.vehicle.capacity}</dt>
        <dd>{v.capacity}</dd>
        <dt>{w.vehicle.makeYear}</dt>
        <dd>{v.makeYear ? new Date(v.makeYear).getUTCFullYear() : w.vehicle.none}</dd>
        <dt>{w.vehicle.roadWorthy}</dt>
        <dd>{day(v.roadWorthyExpiryDate)}</dd>
        <dt>{w.vehicle.insurance}</dt>
        <dd>{day(v.insuranceExpiryDate)}</dd>
        {failed.length > 0 && (
          <>
            <dt>{w.vehicle.failedItems}</dt>
            <dd>{failed.map((item) => w.checklist[item]).join(', ')}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

interface Part {
  v: Vehicle;
  reload: () => void;
  announce: (text: string) => void;
}

function Correction({ v, reload, announce }: Part) {
  const fields = [
    ['registrationNumber', 'Registration number', v.registrationNumber],
    ['make', w.vehicle.make.split(' ')[0], v.make],
    ['model', 'Model', v.model],
    ['color', w.vehicle.color, v.color],
  ] as const;
  return (
    <ActionForm
      announce={announce}
      label={w.vehicle.correct}
      submit={w.vehicle.saveCorrection}
      done={w.vehicle.corrected}
      action={async (data) => {
        const body: Record<string, string> = {};
        for (const [name, , current] of fields) {
          const value = String(data.get(name) ?? '').trim();
          if (value && value !== current) body[name] = value;
        }
        if (Object.keys(body).length === 0) throw new Error(w.vehicle.nothingToCorrect);
        await must(api.POST('/vehicles/{id}/correct', { ...seen(v), body }));
        reload();
      }}
    >
      {fields.map(([name, label, current]) => (
        <div key={name}>
          <label for={`correct-${name}`}>{label}</label>
          <input id={`correct-${name}`} name={name} defaultValue={current ?? ''} />
        </div>
      ))}
    </ActionForm>
  );
}

function Links({ v, reload, announce }: Part) {
  const choices = useLoad(
    () =>
      Promise.all([
        page(api.GET('/drivers/all', { params: { query: { approved: 'true', limit: 100 } } }), (d) => d.payload),
        must(api.GET('/stations/all', { params: { query: { limit: 100 } } })),
        must(api.GET('/unions/all', { params: { query: { limit: 100 } } })),
      ]),
    [],
  );
  if (choices.error !== undefined) return <ProblemMessage error={choices.error} />;
  if (!choices.value) return <Loading />;
  const [drivers, stations, unions] = choices.value;
  const current = (value: unknown) =>
    typeof value === 'string' ? value : ((value as { _id?: string } | null)?._id ?? '');
  return (
    <ActionForm
      announce={announce}
      label={w.vehicle.links}
      submit={w.vehicle.saveLinks}
      done={w.vehicle.linked}
      action={async (data) => {
        const pick = (name: string) => String(data.get(name) ?? '');
        const body: { driver?: string | null; station?: string | null; transportUnion?: string } = {};
        if (pick('driver') !== current(v.driver)) body.driver = pick('driver') || null;
        if (pick('station') !== current(v.station)) body.station = pick('station') || null;
        if (pick('transportUnion') && pick('transportUnion') !== current(v.transportUnion))
          body.transportUnion = pick('transportUnion');
        if (Object.keys(body).length === 0) throw new Error(w.vehicle.nothingToCorrect);
        await must(api.POST('/vehicles/{id}/link', { ...seen(v), body }));
        reload();
      }}
    >
      <Choice
        name="driver"
        label={w.vehicle.linkDriver}
        current={current(v.driver)}
        empty={w.vehicle.noChoice}
        options={drivers.items.map((d) => [d._id, `${d.name} (${d.email})`])}
      />
      <Choice
        name="station"
        label={w.vehicle.linkStation}
        current={current(v.station)}
        empty={w.vehicle.noChoice}
        options={stations.map((st) => [st._id, st.name])}
      />
      <Choice
        name="transportUnion"
        label={w.vehicle.linkUnion}
        current={current(v.transportUnion)}
        empty={w.vehicle.keep}
        options={unions.map((u) => [u._id, u.name])}
      />
    </ActionForm>
  );
}

/** A labelled choice of one record (by id), with an empty first choice. */
function Choice(props: { name: string; label: string; current: string; empty: string; options: [string, string][] }) {
  const id = `link-${props.name}`;
  return (
    <>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} defaultValue={props.current}>
        <option value="">{props.empty}</option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}

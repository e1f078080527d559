import { INSPECTION_ITEMS } from '@transport/domain';
import { useState } from 'preact/hooks';
import { api, must, page, PopUpBlocked, printCertificate, seen, type Session, type Vehicle } from '../api';
import { words as w } from '../i18n';
import {
  ActionForm,
  day,
  Loading,
  NotFound,
  ProblemMessage,
  Title,
  useLoad,
  useNarrow,
  useNotice,
  type ProblemContext,
} from '../ui';
import { History } from './history';
import { notRecordedItems } from './checklist-items';
import { outcomeWords, failedItems, InspectionForm, withNote } from './inspection';
import { loadVehicle, WaitingBadge } from '../offline/outbox';
import { evidenceTasks } from './inspections';
import { colourHex, colourName, VEHICLE_COLOURS } from '../colours';

const path = (id: string) => ({ params: { path: { id } } });
/** A date input's value (YYYY-MM-DD) or undefined when left empty. */
const dateField = (data: FormData, name: string) => (String(data.get(name) ?? '') || undefined) as string | undefined;

/** One thing a person does with a vehicle: its name in the address, its words, and its part of the screen. */
interface Task {
  key: string;
  label: string;
  part: preact.JSX.Element;
}

export function VehicleScreen(props: { id: string; session: Session; task?: string }) {
  const { id, session } = props;
  // Offline, the copy kept on this phone when it was last opened (an inspection can still be recorded).
  const vehicle = useLoad(() => loadVehicle(id, session.person._id), [id]);
  const { notice, announce } = useNotice();
  const narrow = useNarrow();
  if (vehicle.error !== undefined)
    return <NotFound error={vehicle.error} title={w.vehicle.title(id)} retry={vehicle.reload} />;
  if (!vehicle.value) return <Loading />;
  const v = vehicle.value;
  const role = session.person.role;
  const reload = vehicle.reload;
  const failed = failedItems(v);
  // A refusal names this vehicle and its fields as the forms do, and a conflict offers to load it again.
  const problem = { what: w.vehicle.reload, reload };
  const staff = role === 'inspector' || role === 'approver';

  const tasks: Task[] = [];
  if (role === 'inspector')
    tasks.push({
      key: 'inspect',
      label: w.vehicle.inspection,
      part: <InspectionForm v={v} reload={reload} problem={problem} personId={session.person._id} />,
    });
  if (role === 'approver' && !v.approved)
    tasks.push({
      key: 'approve',
      label: w.vehicle.approval,
      part:
        failed.length > 0 ? (
          <section class="panel" aria-labelledby="approval">
            <h2 id="approval">{w.vehicle.approval}</h2>
            <p class="alert warn">{w.vehicle.failedHelp(failed.join(', '))}</p>
          </section>
        ) : (
          <ActionForm
            announce={announce}
            label={w.vehicle.approval}
            help={w.vehicle.approvalHelp}
            submit={w.vehicle.approve}
            done={w.vehicle.approvedNow}
            problem={problem}
            action={async () => {
              await must(api.POST('/vehicles/{id}/approve', seen(v)));
              reload();
            }}
          />
        ),
    });
  if (staff) {
    tasks.push({
      key: 'renew',
      label: w.vehicle.renewals,
      part: (
        <ActionForm
          label={w.vehicle.renewals}
          help={w.vehicle.renewalsHelp}
          submit={w.vehicle.saveRenewal}
          done={w.vehicle.renewed}
          problem={problem}
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
      ),
    });
    tasks.push({
      key: 'correct',
      label: w.vehicle.correct,
      part: <Correction v={v} reload={reload} problem={problem} />,
    });
    tasks.push({ key: 'links', label: w.vehicle.links, part: <Links v={v} reload={reload} problem={problem} /> });
  }
  tasks.push(...evidenceTasks({ v, session, reload, problem, announce }));
  tasks.push({
    key: 'history',
    label: w.history.title,
    part: <History entity="vehicle" id={id} me={session.person._id} version={v.__v} />,
  });

  const title = w.vehicle.title(v.registrationNumber ?? v._id);
  const here = `#/vehicles/${id}`;
  // On a phone, one task per screen: the vehicle's details and a list of what can be done, or one task with a way
  // back. At a desk, everything on one page.
  const chosen = narrow ? tasks.find((t) => t.key === props.task) : undefined;
  if (chosen)
    return (
      <>
        <Title>{`${title} · ${chosen.label}`}</Title>
        <p>
          <a class="back" href={here}>
            {w.vehicle.back(v.registrationNumber ?? v._id)}
          </a>
        </p>
        <Badges v={v} />
        {notice}
        {chosen.part}
      </>
    );
  return (
    <>
      <Title>{title}</Title>
      {notice}
      <WaitingBadge vehicleId={id} personId={session.person._id} />
      <Facts v={v} />
      {v.approved && <PrintCertificate v={v} problem={problem} />}
      {narrow ? (
        <nav class="panel tasks" aria-labelledby="tasks">
          <h2 id="tasks">{w.vehicle.tasks}</h2>
          <ul>
            {tasks.map((t) => (
              <li key={t.key}>
                <a href={`${here}/${t.key}`}>{t.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        tasks.map((t) => <div key={t.key}>{t.part}</div>)
      )}
    </>
  );
}

/** Where the vehicle stands: inspected (or failed), approved. */
function Badges({ v }: { v: Vehicle }) {
  return (
    <p class="badges">
      {failedItems(v).length > 0 ? (
        <span class="badge bad">{w.vehicle.failedInspection}</span>
      ) : (
        <span class={v.inspected ? 'badge ok' : 'badge'}>
          {v.inspected ? w.vehicle.inspected : w.vehicle.notInspected}
        </span>
      )}
      <span class={v.approved ? 'badge ok' : 'badge'}>{v.approved ? w.vehicle.approved : w.vehicle.notApproved}</span>
    </p>
  );
}

function Facts({ v }: { v: Vehicle }) {
  const failed = failedItems(v);
  const notRecorded = notRecordedItems(v.inspectionChecklist, w.checklist);
  return (
    <section class="panel" aria-labelledby="details">
      <h2 id="details">{w.vehicle.details}</h2>
      <Badges v={v} />
      <dl class="facts">
        <dt>{w.vehicle.make}</dt>
        <dd>
          {v.make} {v.model}
        </dd>
        <dt>{w.vehicle.color}</dt>
        <dd>{colourName(v.color)}</dd>
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
            <dd>
              {INSPECTION_ITEMS.filter((item) => v.inspectionChecklist?.[item] === false)
                .map((item) => {
                  const graded = v.inspectionGrades?.[item];
                  const name = graded
                    ? `${w.checklist[item]} (${w.vehicle.grade[graded as 'major']})`
                    : w.checklist[item];
                  return withNote(name, v.inspectionDefects?.[item]);
                })
                .join('; ')}
            </dd>
            <dt>{w.vehicle.outcomeLabel}</dt>
            <dd id="inspection-outcome">{outcomeWords(v)}</dd>
          </>
        )}
        {notRecorded.length > 0 && (
          <>
            <dt>{w.vehicle.notRecordedItems}</dt>
            <dd>{notRecorded.join('; ')}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

interface Part {
  v: Vehicle;
  reload: () => void;
  problem: ProblemContext;
}

function Correction({ v, reload, problem }: Part) {
  const fields = [
    ['registrationNumber', w.vehicle.registration, v.registrationNumber],
    ['make', w.vehicle.makeOnly, v.make],
    ['model', w.vehicle.model, v.model],
    // People type and read a colour's name; the record keeps its hex (a hex is still accepted).
    ['color', w.vehicle.color, v.color === undefined ? undefined : colourName(v.color)],
  ] as const;
  return (
    <ActionForm
      problem={problem}
      label={w.vehicle.correct}
      submit={w.vehicle.saveCorrection}
      done={w.vehicle.corrected}
      action={async (data) => {
        const body: Record<string, string> = {};
        for (const [name, , current] of fields) {
          const value = String(data.get(name) ?? '').trim();
          if (value && value !== current) body[name] = name === 'color' ? colourHex(value) : value;
        }
        if (body.color !== undefined && body.color.toUpperCase() === v.color?.toUpperCase()) delete body.color;
        if (Object.keys(body).length === 0) throw new Error(w.vehicle.nothingToCorrect);
        await must(api.POST('/vehicles/{id}/correct', { ...seen(v), body }));
        reload();
      }}
    >
      {fields.map(([name, label, current]) => (
        <div key={name}>
          <label for={`correct-${name}`}>{label}</label>
          {name === 'color' ? (
            <>
              <p class="help" id="colour-help">
                {w.vehicle.colorHelp}
              </p>
              <input
                id="correct-color"
                name="color"
                list="colour-names"
                autocomplete="off"
                aria-describedby="colour-help"
                defaultValue={current ?? ''}
              />
              <datalist id="colour-names">
                {VEHICLE_COLOURS.map(([hex, key]) => (
                  <option key={hex} value={w.colours[key]} />
                ))}
              </datalist>
            </>
          ) : (
            <input id={`correct-${name}`} name={name} defaultValue={current ?? ''} />
          )}
        </div>
      ))}
    </ActionForm>
  );
}

function Links({ v, reload, problem }: Part) {
  const choices = useLoad(
    () =>
      Promise.all([
        page(api.GET('/drivers/all', { params: { query: { approved: 'true', limit: 100 } } }), (d) => d.payload),
        must(api.GET('/stations/all', { params: { query: { limit: 100 } } })),
        must(api.GET('/unions/all', { params: { query: { limit: 100 } } })),
        // The linked driver, shown even when not among the first approved drivers listed.
        v.driver ? must(api.GET('/drivers/{id}', path(v.driver))).catch(() => undefined) : undefined,
      ]),
    [v.driver],
  );
  if (choices.error !== undefined) return <ProblemMessage error={choices.error} retry={choices.reload} />;
  if (!choices.value) return <Loading />;
  const [drivers, stations, unions, linked] = choices.value;
  const current = (value: unknown) =>
    typeof value === 'string' ? value : ((value as { _id?: string } | null)?._id ?? '');
  // The linked driver is offered even when not among the first approved drivers listed, so the form shows it.
  const driverChoices: [string, string][] = drivers.items.map((d) => [d._id, `${d.name} (${d.email})`]);
  if (linked && !driverChoices.some(([id]) => id === linked._id))
    driverChoices.unshift([linked._id, `${linked.name} (${linked.email})`]);
  return (
    <ActionForm
      problem={problem}
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
        options={driverChoices}
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

/**
 * A labelled choice of one record (by id), with an empty first choice, showing the current one. The current one is
 * the options' default (`defaultSelected`, the `selected` attribute): a select has no default value of its own, and a
 * form reset returns to it.
 */
function Choice(props: { name: string; label: string; current: string; empty: string; options: [string, string][] }) {
  const id = `link-${props.name}`;
  return (
    <>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name}>
        <option value="" {...{ defaultSelected: props.current === '' }}>
          {props.empty}
        </option>
        {props.options.map(([value, text]) => (
          <option key={value} value={value} {...{ defaultSelected: value === props.current }}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}

/**
 * Printing the certificate: each press is a print the API audits (issued, then reprinted), sent with the session's CSRF
 * token; the sheet opens in a window of its own, with the browser's print dialog.
 */
function PrintCertificate(props: { v: Vehicle; problem: ProblemContext }) {
  const { v } = props;
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<unknown>();
  const plate = v.registrationNumber ?? v._id;
  const ended = endedDocuments(v, new Date());
  const print = (size: 'a6' | 'a4') => {
    // A sticker for a vehicle whose roadworthy (or insurance) has ended says so when scanned: printed knowingly only.
    if (ended && !confirm(w.roadside.printAnyway(plate, ended))) return;
    // Opened now, at the click: a window opened once the answer is in would be blocked as a pop-up.
    const sheet = window.open('', '_blank');
    setBusy(true);
    setRefusal(undefined);
    printCertificate(v._id, size, sheet)
      .catch((error: unknown) => setRefusal(error))
      .finally(() => setBusy(false));
  };
  return (
    <div>
      {ended && <p class="alert warn">{w.roadside.documentsEnded(plate, ended)}</p>}
      <p>
        <button type="button" disabled={busy} onClick={() => print('a6')}>
          {w.scan.print}
        </button>{' '}
        <button type="button" disabled={busy} onClick={() => print('a4')}>
          {w.scan.printA4}
        </button>
      </p>
      {busy && <p aria-live="polite">{w.scan.printing}</p>}
      {refusal !== undefined &&
        (refusal instanceof PopUpBlocked ? (
          <p role="alert">{w.scan.printBlocked}</p>
        ) : (
          <ProblemMessage error={refusal} {...props.problem} />
        ))}
    </div>
  );
}

/** The vehicle's documents that have ended by `now`, in words ("roadworthy certificate"), or undefined when none. */
function endedDocuments(v: Vehicle, now: Date): string | undefined {
  const ended = [
    [v.roadWorthyExpiryDate, w.vehicle.roadWorthyDocument],
    [v.insuranceExpiryDate, w.vehicle.insuranceDocument],
  ].flatMap(([end, name]) => (end && new Date(end).getTime() <= now.getTime() ? [name as string] : []));
  return ended.length > 0 ? ended.join(w.roadside.and) : undefined;
}

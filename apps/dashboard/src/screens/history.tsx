import { INSPECTION_ITEMS } from '@transport/domain';
import { api, must, type AuditEntry } from '../api';
import { words as w } from '../i18n';
import { dateTime, Loading, ProblemMessage, useLoad } from '../ui';
import { withNote } from './inspection';

const names = new Map<string, Promise<string>>();

/** An assembly user's name, asked once per page load (the history names its actors by id). */
function nameOf(id: string): Promise<string> {
  let name = names.get(id);
  if (!name) {
    name = must(api.GET('/assembly/users/{id}', { params: { path: { id } } })).then(
      (user) => user.name,
      () => id,
    );
    names.set(id, name);
  }
  return name;
}

/** Each change of a record, oldest first, in words: what happened, when, and who did it. */
export function History(props: { entity: 'vehicle' | 'driver'; id: string; me: string; version: unknown }) {
  const history = useLoad(async () => {
    const entries: AuditEntry[] = await must(
      api.GET('/audit', { params: { query: { entity: props.entity, id: props.id } } }),
    );
    const who = await Promise.all(entries.map((e) => actor(e, props.me)));
    return entries.map((entry, i) => ({ entry, who: who[i] }));
  }, [props.id, props.version]);

  return (
    <section class="panel" aria-labelledby="history">
      <h2 id="history">{w.history.title}</h2>
      {history.error !== undefined && <ProblemMessage error={history.error} retry={history.reload} />}
      {history.value === undefined && history.error === undefined && <Loading />}
      {history.value?.length === 0 && <p class="empty">{w.history.empty}</p>}
      {history.value && history.value.length > 0 && (
        <ol class="history">
          {history.value.map(({ entry, who }) => (
            <li key={entry._id}>
              <span class="what">{actionWords(entry)}</span>
              <span class="muted">
                <time dateTime={String(entry.at)}>{dateTime(entry.at)}</time> {w.history.by} {who}
              </span>
              {entry.action.endsWith('Corrected') && changed(entry)}
              {entry.action === 'VehicleInspected' && inspection(entry)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

async function actor(entry: AuditEntry, me: string): Promise<string> {
  const { role, id } = entry.actor;
  if (role === 'assembly') return id === me ? w.history.you : nameOf(id);
  if (role === 'admin') return w.history.admin;
  if (role === 'platform') return w.history.platform;
  return w.history.system;
}

/** The fields a correction changed (the audit keeps only those, before and after). */
function changed(entry: AuditEntry) {
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const fields = Object.keys(after);
  if (fields.length === 0) return null;
  return (
    <span class="muted">
      {w.history.changed}: {fields.join(', ')}
    </span>
  );
}

/** What happened, in words: a station link set to none is an unlink. */
function actionWords(entry: AuditEntry): string {
  const after = (entry.after ?? {}) as Record<string, unknown>;
  // The entry keeps the vehicle as it was after the change: no station (null) there means the link was removed.
  if (entry.action === 'VehicleStationLinked' && after.stationId === null) return w.history.stationUnlinked;
  return w.history.actions[entry.action] ?? w.evidence.actions[entry.action] ?? spaced(entry.action);
}

/** An inspection's outcome per item, as recorded: which passed and which failed. */
function inspection(entry: AuditEntry) {
  const after = (entry.after ?? {}) as {
    inspectionChecklist?: Record<string, boolean>;
    inspectionDefects?: Record<string, string>;
    dateInspected?: string;
    inspectionReceivedAt?: string;
    inspectionLocation?: { coordinates: [number, number] };
  };
  const where = after.inspectionLocation?.coordinates;
  const checklist = after.inspectionChecklist;
  // Made on a phone without a signal and sent later: both times, the one it was made first.
  const made = after.dateInspected;
  const received = after.inspectionReceivedAt;
  const late = made && received && Date.parse(received) - Date.parse(made) >= 60_000;
  if (!checklist) return null;
  const notes = after.inspectionDefects ?? {};
  // In the order an inspector walks round the vehicle (the domain's list; storage keeps none).
  const items = INSPECTION_ITEMS.filter((item) => item in checklist).map((item) => [item, checklist[item]] as const);
  const failed = items.filter(([, ok]) => !ok).map(([item]) => withNote(w.checklist[item] ?? item, notes[item]));
  const passed = items.filter(([, ok]) => ok).map(([item]) => w.checklist[item] ?? item);
  return (
    <>
      {late && <span class="made">{w.history.madeReceived(dateTime(made), dateTime(received))}</span>}
      {where && <span class="muted">{w.history.madeWhere(where[1], where[0])}</span>}
      {failed.length > 0 && (
        <span class="failed">
          {w.history.failed}: {failed.join('; ')}
        </span>
      )}
      {passed.length > 0 && (
        <span class="muted">
          {w.history.passed}: {passed.join(', ')}
        </span>
      )}
    </>
  );
}

const spaced = (action: string) => action.replace(/([a-z])([A-Z])/g, '$1 $2');

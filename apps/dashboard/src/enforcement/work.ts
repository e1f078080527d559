import { normalizePhone, registrationSearchKey } from '@transport/domain';
import { nextCursor, type components } from '@transport/api-client';
import { api, ApiProblem, must, type Session } from '../api';
import { packSession } from '../offline/pack';
import {
  type Catalogue,
  dropCheck,
  dropOffence,
  keepCheck,
  keepOffence,
  keepRoadsidePack,
  queuedChecks,
  queuedOffences,
  roadsidePack,
  type QueuedOffence,
  type RoadsidePackVehicle,
} from './store';

// The enforcer's work with and without a signal: the roadside check (the service's answer, or the work pack's when
// it cannot be reached), the pack's refresh, and sending what waits.

export type CheckAnswer = components['schemas']['RoadsideCheckResponse'];
type PackPage = { url: string; etag?: string; items: RoadsidePackVehicle[] };

/** An answer and where it came from: the service, or the pack fetched at `packFrom` (its age is shown). */
export interface Checked {
  answer: CheckAnswer;
  packFrom?: string;
}

export interface Question {
  plate?: string;
  token?: string;
  /** The plate the phone read from a verified token (to find it in the pack). */
  tokenPlate?: string;
  license?: string;
  phone?: string;
}

/** Fetches the enforcer's pack (every page) and the catalogue of their assembly; kept on the phone. */
export async function refreshRoadsidePack(session: Session): Promise<void> {
  // The pack never outlives the session: its bounds are kept to tell when it has ended (offline too).
  packSession(session);
  const kept = await roadsidePack(session.person._id);
  // Each page is sent back with its ETag: an unchanged page answers 304 without a body (the kept page stands).
  let offset = 0;
  const known = new Map(
    (kept?.pages ?? []).map((p) => {
      offset += p.count;
      return [p.url, { etag: p.etag, items: kept?.vehicles.slice(offset - p.count, offset) ?? [] }];
    }),
  );
  const pages: PackPage[] = [];
  let after: string | undefined;
  do {
    const was = known.get(after ?? '');
    const answer = await api.GET('/enforcement/work-pack', {
      params: { query: { ...(after && { after }) } },
      headers: was?.etag ? { 'If-None-Match': was.etag } : {},
    });
    const unchanged = answer.response.status === 304 && was;
    if (!unchanged && !answer.data) throw new ApiProblem(answer.response.status, answer.error ?? {});
    const items = unchanged ? was.items : (answer.data ?? []);
    pages.push({ url: after ?? '', etag: answer.response.headers.get('ETag') ?? was?.etag, items });
    after = nextCursor(answer.response) ?? undefined;
  } while (after);
  const catalogue = await api.GET('/enforcement/catalogue', {}).then(
    (a) => a.data,
    () => undefined,
  );
  const day = await api.GET('/enforcement/my-day', {}).then(
    (a) => a.data,
    () => undefined,
  );
  const nationwide = day?.nationwide ?? kept?.nationwide ?? false;
  const assemblies = nationwide ? ((await allAssemblies()) ?? kept?.assemblies) : undefined;
  await keepRoadsidePack({
    personId: session.person._id,
    fetchedAt: new Date().toISOString(),
    vehicles: pages.flatMap((p) => p.items),
    pages: pages.map(({ url, etag, items }) => ({ url, ...(etag && { etag }), count: items.length })),
    ...((catalogue ?? kept?.catalogue) && { catalogue: catalogue ?? kept?.catalogue }),
    ...(nationwide && { nationwide, assemblies, catalogues: kept?.catalogues ?? {} }),
  });
}

/** Every assembly (a nationwide officer chooses where an offence was made), or undefined without a signal. */
async function allAssemblies(): Promise<Array<{ _id: string; name: string }> | undefined> {
  const found: Array<{ _id: string; name: string }> = [];
  let after: string | undefined;
  do {
    const answer = await api
      .GET('/assembly/all', { params: { query: { limit: 100, ...(after && { after }) } } })
      .catch(() => undefined);
    if (!answer?.data) return undefined;
    found.push(...answer.data.map((a) => ({ _id: a._id, name: a.name })));
    after = nextCursor(answer.response) ?? undefined;
  } while (after);
  return found;
}

/**
 * The catalogue of the assembly where a nationwide officer's offence was made: the one kept on the phone, else fetched
 * now and kept (undefined without a signal when none is kept).
 */
export async function catalogueOf(personId: string, assembly: string): Promise<Catalogue | undefined> {
  const pack = await roadsidePack(personId);
  const kept = pack?.catalogues?.[assembly];
  if (kept || !pack) return kept;
  const fetched = await api
    .GET('/enforcement/catalogue', { params: { query: { assembly } } })
    .then((a) => a.data)
    .catch(() => undefined);
  if (fetched) await keepRoadsidePack({ ...pack, catalogues: { ...pack.catalogues, [assembly]: fetched } });
  return fetched;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
/** The pack's hash of a licence number or phone (the service's driverHash: docs/enforcement.md). */
async function driverHash(vehicleId: string, kind: 'license' | 'phone', value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${vehicleId}|${kind}|${value}`));
  return hex(digest).slice(0, 16);
}

/** The check from the pack alone: what it can say, as the service would, as of the phone's clock. */
export async function checkFromPack(personId: string, q: Question): Promise<Checked | undefined> {
  const pack = await roadsidePack(personId);
  if (!pack) return undefined;
  const key = registrationSearchKey(q.plate ?? q.tokenPlate ?? '');
  const v = key.length >= 3 ? pack.vehicles.find((p) => p.plateKey === key) : undefined;
  const now = new Date();
  const answer: CheckAnswer = {
    checkedAt: now.toISOString(),
    vehicle: null,
    sticker: { state: 'unknown' },
    documents: [],
    driver: null,
    openNotices: [],
  };
  if (!v) return { answer, packFrom: pack.fetchedAt };
  const documents = v.documents.map((d) => ({ ...d, expired: Date.parse(d.expiresOn) <= now.getTime() }));
  let phone: string | undefined;
  try {
    phone = q.phone ? normalizePhone(q.phone) : undefined;
  } catch {
    phone = undefined;
  }
  const asked = Boolean(q.license || q.phone);
  const tried = [
    ...(q.license ? [await driverHash(v._id, 'license', q.license.toUpperCase().replace(/[^A-Z0-9]/g, ''))] : []),
    ...(phone ? [await driverHash(v._id, 'phone', phone)] : []),
  ];
  return {
    packFrom: pack.fetchedAt,
    answer: {
      ...answer,
      vehicle: {
        _id: v._id,
        registrationNumber: v.registrationNumber,
        make: v.make ?? null,
        model: v.model ?? null,
        color: v.color ?? null,
        type: v.type ?? null,
        assembly: v.assembly ?? null,
      },
      sticker: { state: !v.approved ? 'withdrawn' : documents.some((d) => d.expired) ? 'expired' : 'valid' },
      documents,
      driver: asked ? { approvedDriver: tried.some((h) => v.driverHashes.includes(h)) } : null,
      openNotices: v.openNotices,
    } as CheckAnswer,
  };
}

/** The check: the service's answer, or, without a signal, the pack's (its log entry kept to send later). */
export async function check(personId: string, q: Question): Promise<Checked | undefined> {
  const madeAt = new Date().toISOString();
  const body = {
    ...(q.token ? { token: q.token } : { plate: q.plate ?? '' }),
    ...(q.license && { license: q.license }),
    ...(q.phone && { phone: q.phone }),
    madeAt,
  };
  try {
    return { answer: await must(api.POST('/enforcement/checks', { body })) };
  } catch (error) {
    if (!(error instanceof ApiProblem) || error.status !== 0) throw error;
  }
  const local = await checkFromPack(personId, q);
  // Every check is logged: this one when the signal returns (the plate as typed; a token is sent, never kept there).
  await keepCheck({
    key: crypto.randomUUID(),
    personId,
    ...(q.token ? { token: q.token } : { plate: q.plate ?? '' }),
    madeAt,
  });
  return local;
}

let sending: Promise<void> | undefined;

/** Sends what waits: offences (then each one's photos), then the log entries of offline checks. */
export function sendQueued(personId: string): Promise<void> {
  sending ??= sendAll(personId).finally(() => {
    sending = undefined;
  });
  return sending;
}

const inProgress = (error: unknown) => (error as { code?: string } | undefined)?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
/**
 * Not an answer about the request itself: no connection, the session ended (401), the service busy or failing (5xx,
 * 408, 429) or still recording an earlier try of it. It stays waiting and is tried again at the next chance.
 */
const tryLater = (answer: { response: Response; error?: unknown } | undefined) =>
  !answer ||
  [401, 408, 429].includes(answer.response.status) ||
  answer.response.status >= 500 ||
  inProgress(answer.error);

async function sendAll(personId: string): Promise<void> {
  for (const offence of await queuedOffences(personId)) {
    if (offence.state !== 'waiting') continue;
    if (!(await sendOffence(offence))) return;
  }
  for (const c of await queuedChecks(personId)) {
    // Its key, made when the check was made: an answer lost on the way back is not a second entry in the log.
    const answer = await api
      .POST('/enforcement/checks', {
        params: { header: { 'Idempotency-Key': c.key } },
        body: { ...(c.token ? { token: c.token } : { plate: c.plate ?? '' }), madeAt: c.madeAt },
      })
      .catch(() => undefined);
    if (tryLater(answer)) return;
    // Logged, or refused for what it says (nothing the officer can mend): it leaves the phone.
    await dropCheck(c.key);
  }
}

/** One offence and its photos; false when the service cannot be reached (try again later). */
async function sendOffence(offence: QueuedOffence): Promise<boolean> {
  let entry = offence;
  if (!entry.noticeId) {
    const answer = await api
      .POST('/enforcement/offences', {
        headers: { 'Idempotency-Key': entry.key },
        body: {
          vehicle: entry.vehicleId,
          codes: entry.codes,
          madeAt: entry.madeAt,
          ...(entry.notes && { notes: entry.notes }),
          ...(entry.madeWhere && { madeWhere: entry.madeWhere }),
          ...(entry.assembly && { assembly: entry.assembly }),
        },
      })
      .catch(() => undefined);
    if (tryLater(answer)) return false;
    if (!answer?.data) {
      // Refused for what it says (a code no longer in the catalogue, say): kept, with the service's reason, for the
      // officer to read and discard; never sent again as it is.
      const problem = answer?.error as { detail?: string; code?: string } | undefined;
      await keepOffence({
        ...entry,
        state: 'refused',
        problem: problem?.detail ?? `HTTP ${answer?.response.status}`,
        ...(problem?.code && { problemCode: problem.code }),
      });
      return true;
    }
    entry = { ...entry, noticeId: answer.data._id };
    await keepOffence(entry);
  }
  for (let i = entry.photosSent; i < entry.photos.length; i++) {
    const answer = await api
      .POST('/enforcement/notices/{id}/photos', {
        params: {
          path: { id: entry.noticeId as string },
          query: { takenAt: entry.madeAt },
          header: { 'Idempotency-Key': `${entry.key}.photo.${i}` },
        },
        headers: { 'Content-Type': entry.photos[i].type },
        body: entry.photos[i] as never,
        bodySerializer: (blob: unknown) => blob as Blob,
      })
      .catch(() => undefined);
    if (tryLater(answer)) return false;
    // A photo the service refuses (its bytes) is not tried for ever: the notice stands without it.
    entry = { ...entry, photosSent: i + 1 };
    await keepOffence(entry);
  }
  await dropOffence(entry.key);
  return true;
}

/** A photo as the phone sends it: drawn upright on a canvas at most 1600 px on its longer side, JPEG. */
export async function downsized(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, 1600 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no image'))), 'image/jpeg', 0.8),
  );
}

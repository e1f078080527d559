import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { useEffect, useState } from 'preact/hooks';
import { api, must } from '../api';
import { outbox } from './store';

// Photos of inspections waiting to be sent (issue 46, item 4). Each is kept on the phone, as the JPEG the page drew,
// with the inspection's Idempotency-Key, and sent once its inspection has been accepted: the very same bytes on every
// try, so an answer lost after the service stored one makes no second photo (the service answers the replay with the
// first photo). A database of its own beside the outbox's (offline/store.ts), keyed by person like everything kept.

/** What a photo shows: the plate, the VIN or a checklist item. */
export type PhotoSubject = { kind: 'plate' | 'vin' } | { kind: 'item'; item: string };

export interface WaitingPhoto {
  /** The photo's own key on the phone: the inspection's key and what it shows. */
  id: string;
  personId: string;
  vehicleId: string;
  inspectionKey: string;
  kind: 'plate' | 'vin' | 'item';
  item?: string;
  bytes: Blob;
  /** When the phone took it (its clock) and where, when the inspector let it say. */
  takenAt: string;
  where?: [longitude: number, latitude: number];
  /** The service refused it (its words): kept for the inspector to see, not sent again. */
  problem?: string;
}

interface PhotoDb extends DBSchema {
  photos: { key: string; value: WaitingPhoto };
}

let opened: Promise<IDBPDatabase<PhotoDb>> | undefined;
const db = () =>
  (opened ??= openDB<PhotoDb>('dashboard-photos', 1, {
    upgrade(store) {
      store.createObjectStore('photos', { keyPath: 'id' });
    },
  }));

const changes = new EventTarget();
const changed = () => changes.dispatchEvent(new Event('change'));

export const photoId = (inspectionKey: string, subject: PhotoSubject) =>
  `${inspectionKey}:${subject.kind}${subject.kind === 'item' ? `:${subject.item}` : ''}`;

/** Keeps an inspection's photos on the phone, to be sent after it. */
export async function keepPhotos(photos: WaitingPhoto[]): Promise<void> {
  const tx = (await db()).transaction('photos', 'readwrite');
  await Promise.all([...photos.map((p) => tx.store.put(p)), tx.done]);
  changed();
}

export async function waitingPhotos(personId: string): Promise<WaitingPhoto[]> {
  return (await (await db()).getAll('photos')).filter((p) => p.personId === personId);
}

let sending: Promise<void> | undefined;

/**
 * Sends the person's photos whose inspection the service has accepted (no longer in the outbox under its key). A
 * photo accepted (201, or 200 for a replay) leaves the phone; no connection, an ended session or a busy service keeps
 * it for the next chance; any other refusal is kept with the service's words.
 */
export function sendPhotos(personId: string): Promise<void> {
  sending ??= (async () => {
    const pending = new Set((await outbox(personId)).flatMap((e) => (e.idempotencyKey ? [e.idempotencyKey] : [])));
    for (const photo of await waitingPhotos(personId)) {
      if (photo.problem !== undefined || pending.has(photo.inspectionKey)) continue;
      const answer = await api
        .POST('/vehicles/{id}/inspection-photos', {
          params: {
            path: { id: photo.vehicleId },
            query: {
              kind: photo.kind as 'plate',
              ...(photo.item !== undefined && { item: photo.item as 'brakes' }),
              takenAt: photo.takenAt,
              ...(photo.where && { longitude: photo.where[0], latitude: photo.where[1] }),
            },
            header: { 'Idempotency-Key': photo.inspectionKey },
          },
          body: photo.bytes as never,
          bodySerializer: (body: unknown) => body as Blob,
          headers: { 'Content-Type': photo.bytes.type || 'image/jpeg' },
        })
        .catch(() => undefined);
      const status = answer?.response.status ?? 0;
      if (status === 0 || status === 401 || status === 409 || status === 429 || status >= 500) return;
      const db_ = await db();
      if (answer?.response.ok) await db_.delete('photos', photo.id);
      else
        await db_.put('photos', {
          ...photo,
          problem: (answer?.error as { detail?: string } | undefined)?.detail ?? `HTTP ${status}`,
        });
      changed();
    }
  })().finally(() => {
    sending = undefined;
  });
  return sending;
}

/** The person's photos kept on this phone for a vehicle, kept current as they are sent. */
export function useWaitingPhotos(personId: string, vehicleId: string): WaitingPhoto[] {
  const [photos, setPhotos] = useState<WaitingPhoto[]>([]);
  useEffect(() => {
    let live = true;
    const read = () =>
      waitingPhotos(personId).then(
        (found) => live && setPhotos(found.filter((p) => p.vehicleId === vehicleId)),
        () => undefined,
      );
    read();
    changes.addEventListener('change', read);
    return () => {
      live = false;
      changes.removeEventListener('change', read);
    };
  }, [personId, vehicleId]);
  return photos;
}

/** The longest side of a photo as sent: enough to read a plate or a VIN, a few hundred kB as JPEG. */
export const PHOTO_MAX_SIDE = 1600;

/**
 * A photo from the phone's camera as the service should get it: drawn upright (the camera's orientation applied, as
 * the service removes the Exif block that says it) on a canvas at most PHOTO_MAX_SIDE px on its longest side, as a
 * JPEG. Drawing it also leaves behind everything the file carried besides its pixels (its location among them).
 */
export async function downsized(file: Blob): Promise<Blob> {
  const image = await createImageBitmap(file, { imageOrientation: 'from-image' });
  const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(image.width, image.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(image.width * scale));
  canvas.height = Math.max(1, Math.round(image.height * scale));
  canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
  image.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The photo could not be drawn'))),
      'image/jpeg',
      0.85,
    ),
  );
}

/** Where the phone keeps whether its person's assembly requires photos: { assembly, required }. */
const KEPT = 'tp_photos_required';

function kept(): { assembly: string; required: boolean } | undefined {
  try {
    return JSON.parse(localStorage.getItem(KEPT) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

/** The assembly whose setting the phone keeps (the signed-in person's): a work pack's vehicle does not say its own. */
export const keptAssembly = () => kept()?.assembly;

/**
 * Whether the assembly (else the signed-in person's) requires photos, as last read on this phone; never read: yes,
 * the default.
 */
export function keptPhotosRequired(assembly?: string | null): boolean {
  const known = kept();
  return known && (!assembly || known.assembly === assembly) ? known.required : true;
}

/**
 * Reads the assembly's inspection settings and keeps whether photos are required on the phone, so an inspection
 * form asks the same without a signal. Done on every signed-in page load (the header) and by each form.
 */
export async function refreshPhotosRequired(assembly: string): Promise<boolean> {
  const settings = await must(api.GET('/assembly/inspection-settings/{id}', { params: { path: { id: assembly } } }));
  try {
    localStorage.setItem(KEPT, JSON.stringify({ assembly, required: settings.photosRequired }));
  } catch {
    // A browser that keeps nothing asks again next time.
  }
  return settings.photosRequired;
}

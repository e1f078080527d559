import { useEffect, useState } from 'preact/hooks';
import { words as w } from '../i18n';
import {
  downsized,
  keepPhotos,
  keptAssembly,
  keptPhotosRequired,
  photoId,
  refreshPhotosRequired,
  type PhotoSubject,
  type WaitingPhoto,
} from '../offline/photos';

// Photo evidence in the inspection forms (issue 46, item 4): the plate, the VIN and each failed item, taken with the
// phone's camera (a file input with `capture`), drawn upright and downsized on the phone, kept with the inspection's
// Idempotency-Key and sent after it (offline/photos.ts).

/** A photo taken in the form: the JPEG drawn, when the phone took it. */
export interface Taken {
  bytes: Blob;
  takenAt: string;
  url: string;
}
export type TakenPhotos = Record<string, Taken>;

/**
 * Whether the assembly requires photos (its inspection settings; on by default), kept current while online. A
 * vehicle from the work pack does not name its assembly: an inspector's is their own, kept by the header.
 */
export function usePhotosRequired(assembly: string | null | undefined): boolean {
  const [required, setRequired] = useState(() => keptPhotosRequired(assembly));
  useEffect(() => {
    const id = assembly ?? keptAssembly();
    if (id) refreshPhotosRequired(id).then(setRequired, () => undefined);
  }, [assembly]);
  return required;
}

export const subjectKey = (s: PhotoSubject) => photoId('', s).slice(1);

/** What a photo shows, in words. */
export function subjectWords(s: PhotoSubject): string {
  if (s.kind !== 'item') return s.kind === 'plate' ? w.evidence.plate : w.evidence.vin;
  return w.evidence.item(w.checklist[s.item] ?? s.item);
}

/**
 * The photos an inspection needs where the assembly requires them (the API's rule, `requiredInspectionPhotos`): the
 * plate and VIN of a full inspection, and each failed item not graded minor.
 */
export function requiredSubjects(
  full: boolean,
  failed: readonly string[],
  grades: Record<string, string>,
): PhotoSubject[] {
  return [
    ...(full ? [{ kind: 'plate' } as const, { kind: 'vin' } as const] : []),
    ...failed.filter((item) => (grades[item] ?? 'major') !== 'minor').map((item) => ({ kind: 'item' as const, item })),
  ];
}

/** Refuses to record the inspection while a required photo is missing, naming each. */
export function assertPhotosTaken(required: PhotoSubject[], taken: TakenPhotos): void {
  const missing = required.filter((s) => !taken[subjectKey(s)]);
  if (missing.length > 0) throw new Error(w.evidence.missing(missing.map(subjectWords).join(', ')));
}

/** Keeps the inspection's photos on the phone under its key (sent after it); only those of what it still shows. */
export async function keepTaken(
  taken: TakenPhotos,
  subjects: PhotoSubject[],
  at: { personId: string; vehicleId: string; inspectionKey: string; where?: [number, number] },
): Promise<void> {
  const photos: WaitingPhoto[] = subjects.flatMap((s) => {
    const photo = taken[subjectKey(s)];
    if (!photo) return [];
    return [
      {
        id: photoId(at.inspectionKey, s),
        personId: at.personId,
        vehicleId: at.vehicleId,
        inspectionKey: at.inspectionKey,
        ...s,
        bytes: photo.bytes,
        takenAt: photo.takenAt,
        ...(at.where && { where: at.where }),
      },
    ];
  });
  if (photos.length > 0) await keepPhotos(photos);
}

/**
 * The camera inputs: one per subject, each saying whether it is required, and the photo once taken (a thumbnail).
 * Outside the form's data: the photos are drawn as they are taken and kept in `taken`.
 */
export function PhotoCapture(props: {
  subjects: PhotoSubject[];
  required: boolean;
  taken: TakenPhotos;
  setTaken: (next: (before: TakenPhotos) => TakenPhotos) => void;
}) {
  const [problem, setProblem] = useState<string>();
  // Folded like the grades and the notes where the assembly does not require photos (the phone's form stays short);
  // open where it does.
  const [open, setOpen] = useState(props.required);
  useEffect(() => {
    if (props.required) setOpen(true);
  }, [props.required]);
  return (
    <details class="photos" open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>{w.evidence.legend}</summary>
      {open && (
        <fieldset class="photos">
          <legend>{w.evidence.legend}</legend>
          <p class="help">{props.required ? w.evidence.helpRequired : w.evidence.helpOptional}</p>
          {props.subjects.map((s) => {
            const key = subjectKey(s);
            const id = `photo-${key.replace(/[^a-z0-9]+/gi, '-')}`;
            const photo = props.taken[key];
            return (
              <div key={key} class="photo">
                <label for={id}>{w.evidence.take(subjectWords(s))}</label>
                <input
                  id={id}
                  type="file"
                  accept="image/*"
                  capture="environment"
                  onChange={async (event) => {
                    const input = event.currentTarget as HTMLInputElement;
                    const file = input.files?.[0];
                    if (!file) return;
                    try {
                      setProblem(undefined);
                      const bytes = await downsized(file);
                      const takenAt = new Date(file.lastModified || Date.now()).toISOString();
                      props.setTaken((before) => ({
                        ...before,
                        [key]: { bytes, takenAt, url: URL.createObjectURL(bytes) },
                      }));
                    } catch {
                      setProblem(w.evidence.notAnImage);
                    }
                  }}
                />
                {photo && (
                  <p class="taken">
                    <img src={photo.url} alt={subjectWords(s)} width={64} />
                    {w.evidence.taken(Math.max(1, Math.round(photo.bytes.size / 1024)))}
                  </p>
                )}
              </div>
            );
          })}
          {problem && <p role="alert">{problem}</p>}
        </fieldset>
      )}
    </details>
  );
}

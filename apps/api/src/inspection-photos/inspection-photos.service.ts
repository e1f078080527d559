import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  DomainError,
  geoPoint,
  jurisdictionOf,
  parseInspectionPhotoSubject,
  seesPhotoLocation,
  withinJurisdiction,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type UnitOfWork,
} from '@transport/domain';
import { createHash } from 'node:crypto';
import { assertAssemblyDuty } from '../core/auth/duties';
import { AppError } from '../core/errors';
import type { InspectionPhotoRecord, InspectionPhotos, ObjectStorage, StoredObject } from '../core/ports';
import { CLOCK, ID_GENERATOR, INSPECTION_PHOTOS, OBJECT_STORAGE, STORES, UNIT_OF_WORK } from '../core/tokens';
import { FraudSignsService } from '../fraud-flags/fraud-signs.service';
import { imageTypeOf, withoutLocation } from './image-bytes';

/** The largest photo taken (413 past it): the dashboard downsizes on the phone to well under it. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The most photos one list answers (an inspection has a plate, a VIN and ten items at most). */
export const PHOTO_LIST_LIMIT = 200;

const KEY = /^[\x21-\x7e]{1,255}$/;

/** What the phone says along with the bytes. */
export interface PhotoUpload {
  inspectionKey: string | undefined;
  kind: unknown;
  item?: unknown;
  takenAt?: Date;
  longitude?: number;
  latitude?: number;
}

/** A photo as a reader sees it: where it was taken only for those who may see it. */
export interface PhotoView {
  _id: string;
  vehicle: string;
  inspectionKey: string;
  kind: string;
  item?: string;
  inspectedBy: string;
  contentType: string;
  sha256: string;
  size: number;
  takenAt?: Date;
  takenWhere?: { type: 'Point'; coordinates: readonly [number, number] };
  receivedAt: Date;
}

/** What serves a photo's bytes: a short-lived URL to send the reader to, or the object to stream. */
export type PhotoContent = { url: string } | { object: StoredObject };

/**
 * Photos of inspections (issue 46, item 4): an inspector sends each with the inspection's Idempotency-Key; the bytes
 * go to the ObjectStorage port twice when they carry a location (as sent, and without it), once when they do not;
 * the record says who, when, where and the SHA-256. Readers are staff who may read the vehicle.
 */
@Injectable()
export class InspectionPhotosService {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(OBJECT_STORAGE) private readonly objects: ObjectStorage,
    @Inject(INSPECTION_PHOTOS) private readonly photos: InspectionPhotos,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Optional() private readonly fraudSigns?: FraudSignsService,
  ) {}

  async upload(
    vehicleId: string,
    bytes: Buffer | undefined,
    upload: PhotoUpload,
    actor: Actor,
  ): Promise<{ photo: PhotoView; created: boolean }> {
    const key = upload.inspectionKey;
    if (key === undefined || !KEY.test(key))
      throw new DomainError(
        'INVALID_VALUE',
        'Idempotency-Key is required: the key of the inspection the photo belongs to (1 to 255 visible ASCII characters), sent with the inspection',
        'Idempotency-Key',
      );
    const subject = parseInspectionPhotoSubject(upload.kind, upload.item);
    const takenWhere =
      upload.longitude === undefined && upload.latitude === undefined
        ? undefined
        : geoPoint(upload.longitude as number, upload.latitude as number, 'takenWhere');
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'inspectVehicle');
    const vehicle = await this.vehicle(vehicleId, actor);
    if (!bytes || bytes.length === 0)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the photo as the request body: JPEG, PNG or WebP bytes');
    const type = imageTypeOf(bytes);
    if (!type)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The photo must be a JPEG, PNG or WebP image (told by its bytes)');
    const stripped = withoutLocation(bytes, type);
    if (!stripped)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The photo is not a whole ${type.slice(6).toUpperCase()} image`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const strippedSha = createHash('sha256').update(stripped).digest('hex');
    const objectKey = `inspection-photos/${vehicleId}/${sha256}`;
    const strippedKey = `inspection-photos/${vehicleId}/${strippedSha}`;
    // The bytes first (content-addressed: a retry writes the same objects again), then the record: no record ever
    // points to bytes that are not stored.
    await this.objects.put(objectKey, bytes, { contentType: type, sha256 });
    if (strippedKey !== objectKey)
      await this.objects.put(strippedKey, stripped, { contentType: type, sha256: strippedSha });
    const record: InspectionPhotoRecord = {
      id: this.ids.next(),
      vehicleId,
      inspectionKey: key,
      kind: subject.kind,
      ...(subject.kind === 'item' && { item: subject.item }),
      inspectorId: actor.id,
      contentType: type,
      sha256,
      size: bytes.length,
      objectKey,
      strippedKey,
      ...(upload.takenAt && { takenAt: upload.takenAt }),
      ...(takenWhere && { takenWhere }),
      receivedAt: this.clock.now(),
    };
    const { photo, created } = await this.photos.add(record);
    // In the vehicle's history (a replay adds nothing): what was sent, by whom, never where (inspectors read it too).
    if (created)
      await this.uow.run((ctx) =>
        ctx.audit.append([
          {
            entity: 'vehicle',
            entityId: vehicleId,
            action: 'InspectionPhotoAdded',
            actor,
            before: null,
            after: {
              photo: photo.id,
              inspectionKey: photo.inspectionKey,
              kind: photo.kind,
              ...(photo.item !== undefined && { item: photo.item }),
              sha256: photo.sha256,
              size: photo.size,
            },
            at: photo.receivedAt,
          },
        ]),
      );
    // A photo whose bytes were used before is a sign of fraud (raised once it is stored; it never fails the upload).
    if (created) await this.fraudSigns?.photoStored(photo, vehicle.toState());
    return { photo: this.view(photo, await this.seesLocation(actor)), created };
  }

  async list(vehicleId: string, actor: Actor, inspectionKey?: string): Promise<PhotoView[]> {
    await this.vehicle(vehicleId, actor);
    const sees = await this.seesLocation(actor);
    return (await this.photos.list(vehicleId, PHOTO_LIST_LIMIT, inspectionKey)).map((p) => this.view(p, sees));
  }

  /** The photo's bytes for this reader (without the location unless they may see it), as a URL or a stream. */
  async content(vehicleId: string, photoId: string, actor: Actor, urlSeconds: number): Promise<PhotoContent> {
    await this.vehicle(vehicleId, actor);
    const photo = await this.photos.find(vehicleId, photoId);
    if (!photo) throw new DomainError('NOT_FOUND', `No photo ${photoId} of vehicle ${vehicleId}`, 'photoId');
    const key = (await this.seesLocation(actor)) ? photo.objectKey : photo.strippedKey;
    const url = await this.objects.temporaryUrl(key, urlSeconds);
    if (url) return { url };
    const object = await this.objects.get(key);
    if (!object) throw new Error(`The bytes of photo ${photo.id} are missing from object storage (${key})`);
    return { object };
  }

  private async vehicle(id: string, actor: Actor) {
    return withinJurisdiction(jurisdictionOf(actor), await this.stores.vehicles.findById(id), 'vehicle', id);
  }

  private async seesLocation(actor: Actor): Promise<boolean> {
    if (actor.role === 'admin') return seesPhotoLocation({ role: 'admin' });
    if (actor.role !== 'assembly') return false;
    const user = await this.stores.assemblyUsers.findById(actor.id);
    return user !== undefined && seesPhotoLocation({ role: 'assembly', assemblyRole: user.toState().role });
  }

  private view(photo: InspectionPhotoRecord, seesLocation: boolean): PhotoView {
    return {
      _id: photo.id,
      vehicle: photo.vehicleId,
      inspectionKey: photo.inspectionKey,
      kind: photo.kind,
      ...(photo.item !== undefined && { item: photo.item }),
      inspectedBy: photo.inspectorId,
      contentType: photo.contentType,
      sha256: photo.sha256,
      size: photo.size,
      ...(photo.takenAt && { takenAt: photo.takenAt }),
      ...(seesLocation && photo.takenWhere && { takenWhere: photo.takenWhere }),
      receivedAt: photo.receivedAt,
    };
  }
}

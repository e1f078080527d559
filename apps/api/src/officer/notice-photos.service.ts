import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  geoPoint,
  seesPhotoLocation,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type NoticeState,
  type SecretHasher,
} from '@transport/domain';
import { createHash } from 'node:crypto';
import { AppError } from '../core/errors';
import type { EnforcementStore, ObjectStorage } from '../core/ports';
import type { NoticePhotoRecord, NoticePhotos } from '../core/officer-ports';
import {
  CLOCK,
  ENFORCEMENT_STORE,
  ID_GENERATOR,
  NOTICE_PHOTOS,
  OBJECT_STORAGE,
  SECRET_HASHER,
  STORES,
} from '../core/tokens';
import { noticeOfToken } from '../enforcement/notice-links';
import { imageTypeOf, withoutLocation } from '../inspection-photos/image-bytes';
import { type PhotoContent } from '../inspection-photos/inspection-photos.service';

/** The most photos one notice keeps (evidence, not an album). */
export const NOTICE_PHOTO_LIMIT = 20;

const KEY = /^[\x21-\x7e]{1,255}$/;

/** What the phone says along with the bytes. */
export interface NoticePhotoUpload {
  key: string | undefined;
  takenAt?: Date;
  longitude?: number;
  latitude?: number;
}

/** A notice's photo as a reader sees it: where it was taken only for those who may see it. */
export interface NoticePhotoView {
  _id: string;
  notice: string;
  sentBy: string;
  contentType: string;
  sha256: string;
  size: number;
  takenAt?: Date;
  takenWhere?: { type: 'Point'; coordinates: readonly [number, number] };
  receivedAt: Date;
}

/**
 * Evidence photos of roadside notices (issue 47, item 3): the officer's phone sends each after the notice, with its own
 * Idempotency-Key (a replay is the same photo); the bytes are checked and kept through the ObjectStorage port as
 * inspection photos' are (as sent, and without the metadata that can carry a location). Staff who may read the notice
 * read them; the public notice page serves them without the location, bound to its signed token.
 */
@Injectable()
export class NoticePhotosService {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(OBJECT_STORAGE) private readonly objects: ObjectStorage,
    @Inject(NOTICE_PHOTOS) private readonly photos: NoticePhotos,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async upload(
    noticeId: string,
    bytes: Buffer | undefined,
    upload: NoticePhotoUpload,
    actor: Actor,
  ): Promise<{ photo: NoticePhotoView; created: boolean }> {
    const key = upload.key;
    if (key === undefined || !KEY.test(key))
      throw new DomainError(
        'INVALID_VALUE',
        'Idempotency-Key is required: one per photo (1 to 255 visible ASCII characters), the same on every retry',
        'Idempotency-Key',
      );
    const takenWhere =
      upload.longitude === undefined && upload.latitude === undefined
        ? undefined
        : geoPoint(upload.longitude as number, upload.latitude as number, 'takenWhere');
    const notice = await this.readable(noticeId, actor);
    // Evidence is added by the officer who recorded the notice, or an admin of its assembly; other readers only read.
    const own = notice.officerId === actor.id;
    if (!own && !(await this.isAssemblyAdmin(actor, notice)))
      throw new DomainError(
        'DUTY_NOT_ALLOWED',
        'Only the officer who recorded the notice, or an admin of its assembly, adds its photos',
        'notice',
      );
    if (!bytes || bytes.length === 0)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the photo as the request body: JPEG, PNG or WebP bytes');
    const type = imageTypeOf(bytes);
    if (!type)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The photo must be a JPEG, PNG or WebP image (told by its bytes)');
    const stripped = withoutLocation(bytes, type);
    if (!stripped)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The photo is not a whole ${type.slice(6).toUpperCase()} image`);
    const kept = await this.photos.list(noticeId, NOTICE_PHOTO_LIMIT + 1);
    const replay = kept.find((p) => p.photoKey === key);
    if (replay) return { photo: this.view(replay, await this.seesLocation(actor)), created: false };
    if (kept.length >= NOTICE_PHOTO_LIMIT)
      throw new DomainError('INVALID_VALUE', `A notice keeps at most ${NOTICE_PHOTO_LIMIT} photos`, 'photo');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const strippedSha = createHash('sha256').update(stripped).digest('hex');
    const objectKey = `notice-photos/${noticeId}/${sha256}`;
    const strippedKey = `notice-photos/${noticeId}/${strippedSha}`;
    // The bytes first (content-addressed: a retry writes the same objects again), then the record.
    await this.objects.put(objectKey, bytes, { contentType: type, sha256 });
    if (strippedKey !== objectKey)
      await this.objects.put(strippedKey, stripped, { contentType: type, sha256: strippedSha });
    const record: NoticePhotoRecord = {
      id: this.ids.next(),
      noticeId,
      photoKey: key,
      officerId: actor.id,
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
    return { photo: this.view(photo, await this.seesLocation(actor)), created };
  }

  async list(noticeId: string, actor: Actor): Promise<NoticePhotoView[]> {
    await this.readable(noticeId, actor);
    const sees = await this.seesLocation(actor);
    return (await this.photos.list(noticeId, NOTICE_PHOTO_LIMIT)).map((p) => this.view(p, sees));
  }

  /** The photo's bytes for this reader (without the location unless they may see it), as a URL or a stream. */
  async content(noticeId: string, photoId: string, actor: Actor, urlSeconds: number): Promise<PhotoContent> {
    await this.readable(noticeId, actor);
    return this.bytesOf(noticeId, photoId, await this.seesLocation(actor), urlSeconds);
  }

  /** For the public notice page: a photo of the notice its token names, always without the location. */
  async publicContent(token: string, photoId: string, urlSeconds: number): Promise<PhotoContent> {
    const noticeId = noticeOfToken(this.hasher, token);
    if (!noticeId) throw CommonErrors.notFound('notice', 'of this link');
    return this.bytesOf(noticeId, photoId, false, urlSeconds);
  }

  /** The ids of a notice's photos, for the links on its public page. */
  async publicIds(noticeId: string): Promise<string[]> {
    return (await this.photos.list(noticeId, NOTICE_PHOTO_LIMIT)).map((p) => p.id);
  }

  private async bytesOf(noticeId: string, photoId: string, located: boolean, urlSeconds: number) {
    const photo = await this.photos.find(noticeId, photoId);
    if (!photo) throw new DomainError('NOT_FOUND', `No photo ${photoId} of notice ${noticeId}`, 'photoId');
    const key = located ? photo.objectKey : photo.strippedKey;
    const url = await this.objects.temporaryUrl(key, urlSeconds);
    if (url) return { url };
    const object = await this.objects.get(key);
    if (!object) throw new Error(`The bytes of notice photo ${photo.id} are missing from object storage (${key})`);
    return { object };
  }

  /** The notice, for those who may read it (the national admin, its assembly's staff, its officer); else 404. */
  private async readable(id: string, actor: Actor): Promise<NoticeState> {
    const s = (await this.enforcement.findNotice(id))?.toState();
    if (!s) throw CommonErrors.notFound('notice', id);
    if (actor.role === 'admin' || s.assemblyId === actor.assemblyId || s.officerId === actor.id) return s;
    throw CommonErrors.notFound('notice', id);
  }

  private async isAssemblyAdmin(actor: Actor, notice: NoticeState): Promise<boolean> {
    if (actor.role === 'admin') return true;
    if (actor.role !== 'assembly' || actor.assemblyId !== notice.assemblyId) return false;
    return (await this.stores.assemblyUsers.findById(actor.id))?.toState().role === 'admin';
  }

  private async seesLocation(actor: Actor): Promise<boolean> {
    if (actor.role === 'admin') return seesPhotoLocation({ role: 'admin' });
    if (actor.role !== 'assembly') return false;
    const user = await this.stores.assemblyUsers.findById(actor.id);
    return user !== undefined && seesPhotoLocation({ role: 'assembly', assemblyRole: user.toState().role });
  }

  private view(photo: NoticePhotoRecord, seesLocation: boolean): NoticePhotoView {
    return {
      _id: photo.id,
      notice: photo.noticeId,
      sentBy: photo.officerId,
      contentType: photo.contentType,
      sha256: photo.sha256,
      size: photo.size,
      ...(photo.takenAt && { takenAt: photo.takenAt }),
      ...(seesLocation && photo.takenWhere && { takenWhere: photo.takenWhere }),
      receivedAt: photo.receivedAt,
    };
  }
}

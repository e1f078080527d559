import type { Notice } from '@transport/domain';
import type { RoadsideCheckRecord } from './enforcement-ports';

// The ports of an enforcer's own work (issue 47): the evidence photos of notices and the officer's day. Adapters in
// persistence/, bound in ports.module.ts.

/** An evidence photo of a notice, as stored (its bytes are in ObjectStorage under `objectKey`). */
export interface NoticePhotoRecord {
  id: string;
  noticeId: string;
  /** The Idempotency-Key the phone sent it with: the same key again is the same photo. */
  photoKey: string;
  /** Who sent it. */
  officerId: string;
  contentType: string;
  /** SHA-256 (hex) and size of the bytes as sent. */
  sha256: string;
  size: number;
  /** The bytes as sent (with any location they carry). */
  objectKey: string;
  /** The bytes served to readers who may not see the location (the same key when the photo carried none). */
  strippedKey: string;
  takenAt?: Date;
  takenWhere?: { type: 'Point'; coordinates: readonly [number, number] };
  receivedAt: Date;
}

/** Port: the records of notices' photos (the bytes go to ObjectStorage). */
export interface NoticePhotos {
  /** Stores the record unless the notice has a photo sent with this key: then that one, `created: false`. */
  add(photo: NoticePhotoRecord): Promise<{ photo: NoticePhotoRecord; created: boolean }>;
  /** A notice's photos, oldest first, at most `limit`. */
  list(noticeId: string, limit: number): Promise<NoticePhotoRecord[]>;
  find(noticeId: string, id: string): Promise<NoticePhotoRecord | undefined>;
}

/** Port: what one officer did since a moment (their own day), newest first, at most `limit` of each. */
export interface OfficerRecords {
  noticesOf(officerId: string, since: Date, limit: number): Promise<Notice[]>;
  checksOf(officerId: string, since: Date, limit: number): Promise<RoadsideCheckRecord[]>;
}

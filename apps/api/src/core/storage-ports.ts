// The app's ports for files: object storage (inspection photos now, roadside offence photos next) and the records of
// inspections' photos. Adapters in persistence/, bound in ports.module.ts (docs/storage.md).

/** What an object is stored with: its media type and the SHA-256 (hex) of its bytes. */
export interface ObjectMetadata {
  contentType: string;
  sha256: string;
}

/** A stored object: its metadata and size, and its bytes as a stream (read it once). */
export interface StoredObject extends ObjectMetadata {
  size: number;
  body: NodeJS.ReadableStream;
}

/**
 * Port: object storage for files the records point to (inspection photos, roadside offence photos), by key. Keys are
 * the caller's (`inspection-photos/<vehicle>/<sha256>`): 1 to 512 characters of letters, digits and `/._-`. Adapters:
 * PostgreSQL (a bytea table, the default: the embedded database too) and any S3-compatible store (docs/storage.md).
 */
export interface ObjectStorage {
  /** `postgresql` or `s3`: what readiness and the docs name. */
  readonly kind: string;
  /**
   * Stores the bytes under the key, replacing what was there. Refuses (rejects, nothing stored) bytes whose SHA-256 is
   * not `metadata.sha256`.
   */
  put(key: string, bytes: Uint8Array, metadata: ObjectMetadata): Promise<void>;
  /** The object, or undefined when nothing is stored under the key. */
  get(key: string): Promise<StoredObject | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing a key that holds nothing is no error. */
  delete(key: string): Promise<void>;
  /**
   * A URL that serves the object without the API for `seconds` (a presigned GET), or undefined when the adapter
   * cannot make one (PostgreSQL: the API streams it instead).
   */
  temporaryUrl(key: string, seconds: number): Promise<string | undefined>;
  /** Closes the store's connections at the app's shutdown (the S3 client's sockets); a store without any has none. */
  close?(): void;
}

export type InspectionPhotoKind = 'plate' | 'vin' | 'item';

/** A photo of an inspection, as stored (its bytes are in ObjectStorage under `objectKey`). */
export interface InspectionPhotoRecord {
  id: string;
  vehicleId: string;
  /** The Idempotency-Key of the inspection it belongs to (the phone sends both with the same key). */
  inspectionKey: string;
  kind: InspectionPhotoKind;
  /** The checklist item it shows, for kind `item`. */
  item?: string;
  /** The inspector who sent it. */
  inspectorId: string;
  contentType: string;
  /** SHA-256 (hex) and size of the bytes as sent. */
  sha256: string;
  size: number;
  /** The bytes as sent (with any location they carry). */
  objectKey: string;
  /** The bytes served to readers who may not see the location (the same key when the photo carried none). */
  strippedKey: string;
  /** When the device says it was taken, and where (GeoJSON point), if it said. */
  takenAt?: Date;
  takenWhere?: { type: 'Point'; coordinates: readonly [number, number] };
  /** When the service received it. */
  receivedAt: Date;
}

/** Port: the photos of inspections (their records; the bytes go to ObjectStorage). */
export interface InspectionPhotos {
  /**
   * Stores the record unless the same inspector already sent these bytes for this vehicle under this inspection key:
   * then the first record, `created: false` (a replay).
   */
  add(photo: InspectionPhotoRecord): Promise<{ photo: InspectionPhotoRecord; created: boolean }>;
  /** A vehicle's photos, newest first, at most `limit`; narrowed to one inspection key when given. */
  list(vehicleId: string, limit: number, inspectionKey?: string): Promise<InspectionPhotoRecord[]>;
  find(vehicleId: string, id: string): Promise<InspectionPhotoRecord | undefined>;
}

-- Photo evidence of inspections (issue 46, items 4 and 5; docs/storage.md).
-- The ObjectStorage port's PostgreSQL adapter (OBJECT_STORAGE=postgresql, the default): files by key, in the
-- database's own backups. Photos are at most 5 MB; bytea is stored out of line (TOAST) and not compressed again.
CREATE TABLE "stored_objects" (
    "key" VARCHAR(512) NOT NULL,
    "contentType" VARCHAR(100) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "size" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stored_objects_pkey" PRIMARY KEY ("key")
);
ALTER TABLE "stored_objects" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;

-- The photos of inspections: the plate, the VIN, a failed item; the bytes are in object storage.
CREATE TABLE "inspection_photos" (
    "id" CHAR(24) NOT NULL,
    "vehicleId" CHAR(24) NOT NULL,
    "inspectionKey" VARCHAR(255) NOT NULL,
    "kind" VARCHAR(10) NOT NULL,
    "item" VARCHAR(40),
    "inspectorId" CHAR(24) NOT NULL,
    "contentType" VARCHAR(100) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "size" INTEGER NOT NULL,
    "objectKey" VARCHAR(512) NOT NULL,
    "strippedKey" VARCHAR(512) NOT NULL,
    "takenAt" TIMESTAMPTZ(3),
    "takenWhere" JSONB,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inspection_photos_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "inspection_photos_kind_check" CHECK ("kind" IN ('plate', 'vin', 'item')),
    CONSTRAINT "inspection_photos_item_check" CHECK (("kind" = 'item') = ("item" IS NOT NULL))
);
-- One photo per inspector, vehicle, inspection key and bytes: the same photo sent again is a replay.
CREATE UNIQUE INDEX "inspection_photos_vehicleId_inspectorId_inspectionKey_sha256_key" ON "inspection_photos"("vehicleId", "inspectorId", "inspectionKey", "sha256");
CREATE INDEX "inspection_photos_vehicleId_receivedAt_id_idx" ON "inspection_photos"("vehicleId", "receivedAt" DESC, "id" DESC);
CREATE INDEX "inspection_photos_sha256_idx" ON "inspection_photos"("sha256");
ALTER TABLE "inspection_photos" ADD CONSTRAINT "inspection_photos_vehicleId_fkey" FOREIGN KEY ("vehicleId") REFERENCES "vehicles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

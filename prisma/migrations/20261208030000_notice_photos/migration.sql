-- Evidence photos of roadside notices (issue 47; docs/enforcement.md): the bytes are in object storage (as inspection
-- photos'), the record says which notice, which officer, the SHA-256 and when and where the phone took it.
CREATE TABLE "notice_photos" (
    "id" CHAR(24) NOT NULL,
    "noticeId" CHAR(24) NOT NULL,
    "photoKey" VARCHAR(255) NOT NULL,
    "officerId" CHAR(24) NOT NULL,
    "contentType" VARCHAR(100) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "size" INTEGER NOT NULL,
    "objectKey" VARCHAR(512) NOT NULL,
    "strippedKey" VARCHAR(512) NOT NULL,
    "takenAt" TIMESTAMPTZ(3),
    "takenWhere" JSONB,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notice_photos_pkey" PRIMARY KEY ("id")
);
-- One photo per notice and Idempotency-Key: a phone's replay of a photo whose answer was lost is the same photo.
CREATE UNIQUE INDEX "notice_photos_noticeId_photoKey_key" ON "notice_photos"("noticeId", "photoKey");
CREATE INDEX "notice_photos_noticeId_receivedAt_idx" ON "notice_photos"("noticeId", "receivedAt");

-- An officer's own day (GET /enforcement/my-day) reads its notices and checks newest first through the indexes
-- on ("officerId", "createdAt" DESC) that 20261208020000_notice_contests_and_reports creates.

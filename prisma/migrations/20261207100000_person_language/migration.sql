-- A driver's and a vehicle owner's language (issue 48, item 3): the SMS they are sent are written in it. The codes are
-- libs/domain shared/language.ts's LANGUAGES; a new language there needs its code added to these constraints.
ALTER TABLE "drivers" ADD COLUMN "language" TEXT NOT NULL DEFAULT 'en';
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_language_check" CHECK ("language" IN ('en', 'tw', 'gaa', 'ee', 'ha', 'dag'));
ALTER TABLE "vehicle_owners" ADD COLUMN "language" TEXT NOT NULL DEFAULT 'en';
ALTER TABLE "vehicle_owners" ADD CONSTRAINT "vehicle_owners_language_check" CHECK ("language" IN ('en', 'tw', 'gaa', 'ee', 'ha', 'dag'));

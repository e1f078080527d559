-- The language the dashboard speaks to a member of staff (libs/domain LANGUAGES); English for everyone until chosen.
ALTER TABLE "assembly_users" ADD COLUMN "language" TEXT NOT NULL DEFAULT 'en';

-- Who set a driver's current phone number and email when staff typed them in (null: the driver's own, and every
-- existing row): they may not approve that driver, nor send an activation key to that phone (separation of duties).
ALTER TABLE "drivers" ADD COLUMN "phoneSetBy" CHAR(24);
ALTER TABLE "drivers" ADD COLUMN "emailSetBy" CHAR(24);
-- And who registered it, when staff did (null: the driver, and every existing row): they may not approve it.
ALTER TABLE "drivers" ADD COLUMN "registeredBy" CHAR(24);

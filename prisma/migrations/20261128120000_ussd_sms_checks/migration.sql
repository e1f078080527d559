-- The USSD and SMS checks (docs/ussd-sms.md).
-- A vehicle's check code: ten random digits printed on its certificate sticker, typed where there is no QR reader.
-- Given at the first print (null until then); unique, so a code names one vehicle.
ALTER TABLE "vehicles" ADD COLUMN "checkCode" CHAR(10);
CREATE UNIQUE INDEX "vehicles_checkCode_key" ON "vehicles"("checkCode");
-- A plate typed on a phone is found by its letters and digits with an equality (the trigram index serves substrings,
-- and the planner scans instead for one row): the same expression as vehicles_plate_key_trgm_idx, in a btree.
CREATE INDEX "vehicles_plate_key_idx" ON "vehicles" ((translate("registrationNumber", 'O -', '0')));

-- Vehicles reported by the public over USSD, kept for the assembly whose vehicle it is (null: a plate not on the
-- registry, or a vehicle of no assembly: admins see those). No phone number is kept: the reporter is anonymous.
CREATE TABLE "vehicle_reports" (
    "id" CHAR(24) NOT NULL,
    "plate" TEXT NOT NULL,
    "vehicleId" CHAR(24),
    "assemblyId" CHAR(24),
    "reason" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vehicle_reports_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "vehicle_reports_assemblyId_createdAt_id_idx" ON "vehicle_reports"("assemblyId", "createdAt" DESC, "id" DESC);
CREATE INDEX "vehicle_reports_createdAt_id_idx" ON "vehicle_reports"("createdAt" DESC, "id" DESC);

-- Phone numbers that texted STOP: no reminder goes to them, whoever's record names the number, until START.
CREATE TABLE "sms_opt_outs" (
    "phone" TEXT NOT NULL,
    "stoppedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sms_opt_outs_pkey" PRIMARY KEY ("phone")
);

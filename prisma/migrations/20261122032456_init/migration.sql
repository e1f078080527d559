-- CreateTable
CREATE TABLE "regions" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "country" CHAR(24) NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "regions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assemblies" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "regionId" CHAR(24) NOT NULL,
    "digitalAddress" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assemblies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assembly_users" (
    "id" CHAR(24) NOT NULL,
    "assemblyId" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assembly_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transport_unions" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "parentUnionId" CHAR(24),
    "digitalAddress" TEXT NOT NULL,
    "contactNumber" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "zones" TEXT[],
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transport_unions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stations" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "transportUnions" TEXT[],
    "zones" TEXT[],
    "contactNumber" TEXT NOT NULL,
    "digitalAddress" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vehicle_owners" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "idType" TEXT NOT NULL,
    "idNumber" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vehicle_owners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vehicles" (
    "id" CHAR(24) NOT NULL,
    "ownerId" CHAR(24) NOT NULL,
    "color" TEXT,
    "registrationNumber" TEXT,
    "make" TEXT,
    "model" TEXT,
    "makeYear" TIMESTAMPTZ(3),
    "yearOfRegistration" TIMESTAMPTZ(3),
    "capacity" INTEGER,
    "grossWeight" DOUBLE PRECISION,
    "netWeight" DOUBLE PRECISION,
    "type" TEXT,
    "fuelCapacity" DOUBLE PRECISION,
    "roadWorthyExpiryDate" TIMESTAMPTZ(3),
    "insuranceExpiryDate" TIMESTAMPTZ(3),
    "vin" TEXT,
    "inspected" BOOLEAN NOT NULL DEFAULT false,
    "approved" BOOLEAN NOT NULL DEFAULT false,
    "inspectionChecklist" JSONB,
    "inspectedBy" CHAR(24),
    "dateInspected" TIMESTAMPTZ(3),
    "approvedBy" CHAR(24),
    "dateApproved" TIMESTAMPTZ(3),
    "stationLinked" BOOLEAN NOT NULL DEFAULT false,
    "stationId" CHAR(24),
    "transportUnionId" CHAR(24),
    "driverId" CHAR(24),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vehicles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drivers" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "license" TEXT NOT NULL,
    "licenseClass" TEXT NOT NULL,
    "licenseExpiry" TIMESTAMPTZ(3) NOT NULL,
    "licenseIssueDate" TIMESTAMPTZ(3) NOT NULL,
    "idType" TEXT NOT NULL,
    "idNumber" TEXT NOT NULL,
    "gender" TEXT NOT NULL,
    "online" BOOLEAN NOT NULL DEFAULT false,
    "busy" BOOLEAN NOT NULL DEFAULT false,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "approved" BOOLEAN NOT NULL DEFAULT false,
    "approvalChecklist" JSONB,
    "approvedBy" CHAR(24),
    "dateApproved" TIMESTAMPTZ(3),
    "activationKeyHash" TEXT NOT NULL,
    "activationAttempts" INTEGER NOT NULL DEFAULT 0,
    "dateActivated" TIMESTAMPTZ(3),
    "ownerId" CHAR(24),
    "walletAccount" TEXT,
    "ratingTotal" INTEGER NOT NULL DEFAULT 0,
    "ratingCount" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "drivers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trips" (
    "id" CHAR(24) NOT NULL,
    "ticketNumber" TEXT NOT NULL,
    "service" JSONB NOT NULL,
    "estimatedPrice" INTEGER NOT NULL,
    "estimatedDistance" DOUBLE PRECISION NOT NULL,
    "finalPrice" INTEGER,
    "cashPrice" INTEGER,
    "charges" INTEGER NOT NULL DEFAULT 0,
    "settledAmount" INTEGER NOT NULL DEFAULT 0,
    "discount" INTEGER NOT NULL DEFAULT 0,
    "settled" BOOLEAN NOT NULL DEFAULT false,
    "finalDistance" DOUBLE PRECISION,
    "refundAmount" INTEGER NOT NULL DEFAULT 0,
    "refunded" BOOLEAN NOT NULL DEFAULT false,
    "paymentMethod" TEXT,
    "user" TEXT NOT NULL,
    "pickupLocation" JSONB NOT NULL,
    "serviceDestination" JSONB NOT NULL,
    "droppedOffLocation" JSONB,
    "checkedOut" BOOLEAN NOT NULL DEFAULT false,
    "checkOutTime" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trips_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merchants" (
    "id" CHAR(24) NOT NULL,
    "name" TEXT NOT NULL,
    "signingSecret" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transactions" (
    "id" CHAR(24) NOT NULL,
    "merchantId" CHAR(24) NOT NULL,
    "amount" INTEGER NOT NULL,
    "fees" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "requestType" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "callBackUrl" TEXT NOT NULL,
    "customerEmail" TEXT NOT NULL DEFAULT '',
    "customerName" TEXT NOT NULL DEFAULT '',
    "customerPhone" TEXT NOT NULL,
    "requestInfo" JSONB NOT NULL,
    "callBackInfo" JSONB,
    "callBackTime" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" CHAR(24) NOT NULL,
    "keyHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "principalId" CHAR(24) NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "revokedAt" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "entity" TEXT NOT NULL,
    "entityId" CHAR(24) NOT NULL,
    "action" TEXT NOT NULL,
    "actorRole" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "regions_country_name_key" ON "regions"("country", "name");

-- CreateIndex
CREATE INDEX "assemblies_createdAt_id_idx" ON "assemblies"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "assembly_users_assemblyId_idx" ON "assembly_users"("assemblyId");

-- CreateIndex
CREATE INDEX "assembly_users_createdAt_id_idx" ON "assembly_users"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicle_owners_createdAt_id_idx" ON "vehicle_owners"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicles_ownerId_createdAt_id_idx" ON "vehicles"("ownerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicles_driverId_createdAt_id_idx" ON "vehicles"("driverId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicles_inspected_createdAt_id_idx" ON "vehicles"("inspected", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicles_approved_createdAt_id_idx" ON "vehicles"("approved", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "vehicles_createdAt_id_idx" ON "vehicles"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "vehicles_registrationNumber_key" ON "vehicles"("registrationNumber");

-- CreateIndex
CREATE INDEX "drivers_approved_createdAt_id_idx" ON "drivers"("approved", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "drivers_createdAt_id_idx" ON "drivers"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "trips_ticketNumber_key" ON "trips"("ticketNumber");

-- CreateIndex
CREATE INDEX "trips_createdAt_id_idx" ON "trips"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "transactions_merchantId_reference_key" ON "transactions"("merchantId", "reference");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_keyHash_key" ON "api_keys"("keyHash");

-- CreateIndex
CREATE INDEX "api_keys_principalId_idx" ON "api_keys"("principalId");

-- CreateIndex
CREATE INDEX "audit_log_entity_entityId_id_idx" ON "audit_log"("entity", "entityId", "id");

-- AddForeignKey
ALTER TABLE "assemblies" ADD CONSTRAINT "assemblies_regionId_fkey" FOREIGN KEY ("regionId") REFERENCES "regions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assembly_users" ADD CONSTRAINT "assembly_users_assemblyId_fkey" FOREIGN KEY ("assemblyId") REFERENCES "assemblies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "vehicle_owners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_stationId_fkey" FOREIGN KEY ("stationId") REFERENCES "stations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_transportUnionId_fkey" FOREIGN KEY ("transportUnionId") REFERENCES "transport_unions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_driverId_fkey" FOREIGN KEY ("driverId") REFERENCES "drivers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "vehicle_owners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

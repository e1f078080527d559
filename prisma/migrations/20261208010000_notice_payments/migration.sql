-- Paying a notice by mobile money (issue 47, item 5): the assembly as merchant, and each payment's link to its notice.
-- An assembly's merchant record is made on first need (at most one per assembly); it has no API key unless an admin
-- issues one, so no merchant key sees notice payments but the assembly's own.
ALTER TABLE "merchants" ADD COLUMN "assemblyId" CHAR(24);
CREATE UNIQUE INDEX "merchants_assemblyId_key" ON "merchants"("assemblyId");

-- One row per payment asked for a notice (the transaction's id), settled into the notice in the same database
-- transaction as the payment's final state. At most one unsettled payment per notice (a partial unique index, which
-- Prisma cannot declare): a second request while one is open answers that one.
CREATE TABLE "notice_payments" (
    "transactionId" CHAR(24) NOT NULL,
    "noticeId" CHAR(24) NOT NULL,
    "amount" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "settledAt" TIMESTAMPTZ(3),
    "applied" INTEGER,
    "excess" INTEGER,
    CONSTRAINT "notice_payments_pkey" PRIMARY KEY ("transactionId")
);
CREATE INDEX "notice_payments_noticeId_createdAt_idx" ON "notice_payments"("noticeId", "createdAt" DESC);
CREATE UNIQUE INDEX "notice_payments_noticeId_open_key" ON "notice_payments"("noticeId") WHERE "settledAt" IS NULL;
ALTER TABLE "notice_payments" ADD CONSTRAINT "notice_payments_transactionId_fkey" FOREIGN KEY ("transactionId") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "notice_payments" ADD CONSTRAINT "notice_payments_noticeId_fkey" FOREIGN KEY ("noticeId") REFERENCES "notices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

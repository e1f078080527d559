-- Callback tokens: the unguessable part of the callback URL handed to the provider, one per transaction, kept only
-- as a SHA-256 hash.
-- CreateTable
CREATE TABLE "payment_callback_tokens" (
    "tokenHash" TEXT NOT NULL,
    "transactionId" CHAR(24) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_callback_tokens_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_callback_tokens_transactionId_key" ON "payment_callback_tokens"("transactionId");

-- AddForeignKey
ALTER TABLE "payment_callback_tokens" ADD CONSTRAINT "payment_callback_tokens_transactionId_fkey" FOREIGN KEY ("transactionId") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

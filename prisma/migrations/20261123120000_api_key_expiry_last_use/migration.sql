-- API keys may expire, and their last use is kept to the hour (closed by default: who may see and do what).
-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastUsedAt" TIMESTAMPTZ(3);

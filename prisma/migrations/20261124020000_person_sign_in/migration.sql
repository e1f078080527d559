-- People sign in to the assembly dashboard: a password per assembly user (scrypt), one-time links to set it
-- (invitation or reset, token hashes only), and sessions (token hashes only), all removed with their user.

CREATE TABLE "person_credentials" (
    "userId" CHAR(24) NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "person_credentials_pkey" PRIMARY KEY ("userId")
);

CREATE TABLE "person_tokens" (
    "id" CHAR(24) NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" CHAR(24) NOT NULL,
    "purpose" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "usedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "person_tokens_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "person_sessions" (
    "id" TEXT NOT NULL,
    "userId" CHAR(24) NOT NULL,
    "csrfToken" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "person_sessions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "person_tokens_tokenHash_key" ON "person_tokens"("tokenHash");
CREATE INDEX "person_tokens_userId_idx" ON "person_tokens"("userId");
CREATE INDEX "person_sessions_userId_idx" ON "person_sessions"("userId");

ALTER TABLE "person_credentials" ADD CONSTRAINT "person_credentials_userId_fkey" FOREIGN KEY ("userId") REFERENCES "assembly_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "person_tokens" ADD CONSTRAINT "person_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "assembly_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "person_sessions" ADD CONSTRAINT "person_sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "assembly_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

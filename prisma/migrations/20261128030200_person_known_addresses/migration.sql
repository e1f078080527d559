-- Client addresses that have signed in to an account, kept as a keyed hash of the email and the address (neither in
-- clear): a password reset asked from one proves the asker, whom strangers' requests never refuse.
CREATE TABLE "person_known_addresses" (
    "key" TEXT NOT NULL,
    "lastSignedInAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "person_known_addresses_pkey" PRIMARY KEY ("key")
);

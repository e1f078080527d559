-- A transaction's amount and fees are exact decimals of cedis, not whole pesewas: the original service stored fees such
-- as 0.195 (1.95% of 10.00) and amounts such as 10.125, which an integer of pesewas cannot hold. numeric(15,6): six
-- decimals keep any fee of a percentage with two decimals of an amount with two decimals (10.01 x 1.95% = 0.195195);
-- fifteen digits are as many as a JSON number (a double) carries exactly, so every value the column can hold is
-- answered exactly. Existing pesewas convert exactly (2550 is 25.500000). A fee is NULL when it is not known: an
-- imported fee with more decimals than that is kept out, never rounded (docs/importing.md).
ALTER TABLE "transactions"
  ALTER COLUMN "amount" TYPE NUMERIC(15, 6) USING ("amount"::NUMERIC / 100),
  ALTER COLUMN "fees" DROP DEFAULT,
  ALTER COLUMN "fees" TYPE NUMERIC(15, 6) USING ("fees"::NUMERIC / 100),
  ALTER COLUMN "fees" DROP NOT NULL,
  ALTER COLUMN "fees" SET DEFAULT 0;

-- An approver or admin an assembly admin creates acts only once a second person confirms the account (the national
-- admin, or another assembly admin). Every existing account was made before the rule and stays as it is (false).
ALTER TABLE "assembly_users" ADD COLUMN "createdBy" CHAR(24);
ALTER TABLE "assembly_users" ADD COLUMN "awaitingConfirmation" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "assembly_users" ADD COLUMN "confirmedBy" CHAR(24);

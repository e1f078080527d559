-- Browsing the audit log (GET /audit/entries): newest first by time, by actor, by record kind, each keyset-paged.
CREATE INDEX "audit_log_at_id_idx" ON "audit_log"("at", "id");
CREATE INDEX "audit_log_actorId_at_id_idx" ON "audit_log"("actorId", "at", "id");
CREATE INDEX "audit_log_entity_at_id_idx" ON "audit_log"("entity", "at", "id");

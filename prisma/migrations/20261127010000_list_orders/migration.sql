-- The staff lists sorted across every page (GET /vehicles/all?sort=registrationNumber, GET /drivers/all?sort=name),
-- either way, nationwide and within one assembly: each read from a (column, id) index, walked forwards or backwards.
-- Nationwide by plate needs none: plates are unique, so their unique index gives the order. Oldest first needs none
-- either: the (createdAt DESC, id DESC) indexes serve it walked backwards.

CREATE INDEX "vehicles_assemblyId_registrationNumber_id_idx" ON "vehicles"("assemblyId", "registrationNumber", "id");

CREATE INDEX "drivers_name_id_idx" ON "drivers"("name", "id");
CREATE INDEX "drivers_assemblyId_name_id_idx" ON "drivers"("assemblyId", "name", "id");

-- Drivers whose approval was revoked (GET /drivers/all?state=revoked) are few: found by when it was.
CREATE INDEX "drivers_dateRevoked_idx" ON "drivers"("dateRevoked");

import type { VehicleState } from '@transport/domain';

/**
 * A vehicle's `vehicles` row. A JSON column that is `undefined` is left as it is on an update (and NULL on an insert);
 * `null` sets it to NULL.
 */
export function vehicleRow(s: VehicleState) {
  return {
    id: s.id,
    ownerId: s.ownerId,
    color: s.color ?? null,
    registrationNumber: s.registrationNumber ?? null,
    make: s.make ?? null,
    model: s.model ?? null,
    makeYear: s.makeYear ?? null,
    yearOfRegistration: s.yearOfRegistration ?? null,
    capacity: s.capacity ?? null,
    grossWeight: s.grossWeight ?? null,
    netWeight: s.netWeight ?? null,
    type: s.type ?? null,
    fuelCapacity: s.fuelCapacity ?? null,
    roadWorthyExpiryDate: s.roadWorthyExpiryDate ?? null,
    insuranceExpiryDate: s.insuranceExpiryDate ?? null,
    vin: s.vin ?? null,
    inspected: s.inspected,
    approved: s.approved,
    // A checklist never goes back to nothing once recorded; undefined leaves the column as it is.
    inspectionChecklist: s.inspectionChecklist ? { ...s.inspectionChecklist } : undefined,
    // Notes go with the inspection that made them: none now is NULL, not a note left from an earlier one.
    inspectionDefects: s.inspectionDefects ? { ...s.inspectionDefects } : null,
    // Grades and advice go with the inspection that made them, as notes do.
    inspectionGrades: s.inspectionGrades ? { ...s.inspectionGrades } : null,
    inspectionAdvisories: s.inspectionAdvisories ? { ...s.inspectionAdvisories } : null,
    inspectionId: s.inspectionId ?? null,
    reinspectionDueBy: s.reinspectionDueBy ?? null,
    reinspectionNotBy: s.reinspectionNotBy ?? null,
    inspectedBy: s.inspectedBy ?? null,
    dateInspected: s.dateInspected ?? null,
    inspectionReceivedAt: s.inspectionReceivedAt ?? null,
    // The place goes with the inspection that sent it: none now is NULL.
    inspectionLocation: s.inspectionLocation
      ? { type: 'Point', coordinates: [...s.inspectionLocation.coordinates] }
      : null,
    approvedBy: s.approvedBy ?? null,
    dateApproved: s.dateApproved ?? null,
    // `station: null` is "linked once, then unlinked": the link is kept apart from the station.
    stationLinked: s.stationId !== undefined,
    stationId: s.stationId ?? null,
    transportUnionId: s.transportUnionId ?? null,
    driverId: s.driverId ?? null,
    assemblyId: s.assemblyId ?? null,
    version: s.version,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

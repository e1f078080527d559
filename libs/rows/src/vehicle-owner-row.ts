import type { VehicleOwnerState } from '@transport/domain';

/** A vehicle owner's `vehicle_owners` row. */
export function vehicleOwnerRow(s: VehicleOwnerState) {
  return {
    id: s.id,
    name: s.name,
    phone: s.phone,
    email: s.email ?? null,
    idType: s.idType,
    idNumber: s.idNumber,
    verified: s.verified,
    assemblyId: s.assemblyId ?? null,
    language: s.language,
    version: s.version,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

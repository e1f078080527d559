import type { StationState, TransportUnionState, VehicleState } from '@transport/domain';

export interface StationResponse {
  _id: string;
  name: string;
  transportUnions: string[];
  zones: string[];
  contactNumber: number;
  digitalAddress: string;
}

export interface TransportUnionResponse {
  _id: string;
  status: string;
  name: string;
  transportUnion?: string;
  digitalAddress: string;
  contactNumber: string;
  email: string;
  zones: string[];
}

/** The Vehicle of the interface document; fields marked "present once..." are absent, never null, until then. */
export interface VehicleResponse {
  _id: string;
  ownerID: string;
  color?: string;
  registrationNumber?: string;
  make?: string;
  model?: string;
  makeYear?: string;
  yearOfRegistration?: string;
  capacity?: number;
  grossWeight?: number;
  netWeight?: number;
  type?: string;
  fuelCapacity?: number;
  roadWorthyExpiryDate?: string;
  insuranceExpiryDate?: string;
  vin?: string;
  inspected: boolean;
  approved: boolean;
  inspectionChecklist?: Record<string, boolean>;
  approvedBy?: string;
  dateApproved?: string;
  inspectedBy?: string;
  dateInspected?: string;
  station?: StationResponse | null;
  transportUnion?: TransportUnionResponse;
  driver?: string;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

/** Linked records the vehicle response embeds, looked up by id. */
export interface VehicleLinks {
  stations: ReadonlyMap<string, StationState>;
  unions: ReadonlyMap<string, TransportUnionState>;
}

export function toStationResponse(s: StationState): StationResponse {
  return { _id: s.id, name: s.name, transportUnions: [...s.transportUnions], zones: [...s.zones], contactNumber: s.contactNumber, digitalAddress: s.digitalAddress };
}

export function toTransportUnionResponse(u: TransportUnionState): TransportUnionResponse {
  const out: TransportUnionResponse = {
    _id: u.id,
    status: u.status,
    name: u.name,
    digitalAddress: u.digitalAddress,
    contactNumber: u.contactNumber,
    email: u.email,
    zones: [...u.zones],
  };
  if (u.parentUnionId !== undefined) out.transportUnion = u.parentUnionId;
  return out;
}

const iso = (d: Date | undefined) => d?.toISOString();

export function toVehicleResponse(v: VehicleState, links: VehicleLinks): VehicleResponse {
  const out: VehicleResponse = {
    _id: v.id,
    ownerID: v.ownerId,
    color: v.color,
    registrationNumber: v.registrationNumber,
    make: v.make,
    model: v.model,
    makeYear: iso(v.makeYear),
    yearOfRegistration: iso(v.yearOfRegistration),
    capacity: v.capacity,
    grossWeight: v.grossWeight,
    netWeight: v.netWeight,
    type: v.type,
    fuelCapacity: v.fuelCapacity,
    roadWorthyExpiryDate: iso(v.roadWorthyExpiryDate),
    insuranceExpiryDate: iso(v.insuranceExpiryDate),
    vin: v.vin,
    inspected: v.inspected,
    approved: v.approved,
    inspectionChecklist: v.inspectionChecklist ? { ...v.inspectionChecklist } : undefined,
    approvedBy: v.approvedBy,
    dateApproved: iso(v.dateApproved),
    inspectedBy: v.inspectedBy,
    dateInspected: iso(v.dateInspected),
    driver: v.driverId,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
    __v: v.version,
  };
  if (v.stationId !== undefined) {
    const station = v.stationId === null ? undefined : links.stations.get(v.stationId);
    out.station = station ? toStationResponse(station) : null;
  }
  const union = v.transportUnionId === undefined ? undefined : links.unions.get(v.transportUnionId);
  if (union) out.transportUnion = toTransportUnionResponse(union);
  // Absent, not null: drop every key left undefined.
  for (const key of Object.keys(out) as Array<keyof VehicleResponse>) if (out[key] === undefined) delete out[key];
  return out;
}

import type { Station, TransportUnion, Vehicle } from '../generated/prisma/client';

export type VehicleRow = Vehicle & { station: Station | null; transportUnion: TransportUnion | null };

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

function setIfPresent<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined): void {
  if (value !== null && value !== undefined) target[key] = value;
}

const iso = (date: Date | null): string | undefined => date?.toISOString();

export function toStationResponse(station: Station): StationResponse {
  return {
    _id: station.id,
    name: station.name,
    transportUnions: station.transportUnions,
    zones: station.zones,
    contactNumber: Number(station.contactNumber),
    digitalAddress: station.digitalAddress,
  };
}

export function toTransportUnionResponse(union: TransportUnion): TransportUnionResponse {
  const out: TransportUnionResponse = {
    _id: union.id,
    status: union.status,
    name: union.name,
    digitalAddress: union.digitalAddress,
    contactNumber: union.contactNumber,
    email: union.email,
    zones: union.zones,
  };
  setIfPresent(out, 'transportUnion', union.parentUnionId);
  return out;
}

export function toVehicleResponse(row: VehicleRow): VehicleResponse {
  const out: VehicleResponse = {
    _id: row.id,
    ownerID: row.ownerId,
    inspected: row.inspected,
    approved: row.approved,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    __v: row.version,
  };
  setIfPresent(out, 'color', row.color);
  setIfPresent(out, 'registrationNumber', row.registrationNumber);
  setIfPresent(out, 'make', row.make);
  setIfPresent(out, 'model', row.model);
  setIfPresent(out, 'makeYear', iso(row.makeYear));
  setIfPresent(out, 'yearOfRegistration', iso(row.yearOfRegistration));
  setIfPresent(out, 'capacity', row.capacity);
  setIfPresent(out, 'grossWeight', row.grossWeight);
  setIfPresent(out, 'netWeight', row.netWeight);
  setIfPresent(out, 'type', row.type);
  setIfPresent(out, 'fuelCapacity', row.fuelCapacity);
  setIfPresent(out, 'roadWorthyExpiryDate', iso(row.roadWorthyExpiryDate));
  setIfPresent(out, 'insuranceExpiryDate', iso(row.insuranceExpiryDate));
  setIfPresent(out, 'vin', row.vin);
  setIfPresent(out, 'inspectionChecklist', row.inspectionChecklist as Record<string, boolean> | null);
  setIfPresent(out, 'inspectedBy', row.inspectedBy);
  setIfPresent(out, 'dateInspected', iso(row.dateInspected));
  setIfPresent(out, 'approvedBy', row.approvedBy);
  setIfPresent(out, 'dateApproved', iso(row.dateApproved));
  if (row.stationLinked) out.station = row.station ? toStationResponse(row.station) : null;
  if (row.transportUnion) out.transportUnion = toTransportUnionResponse(row.transportUnion);
  setIfPresent(out, 'driver', row.driverId);
  return out;
}

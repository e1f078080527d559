import type { VehicleOwnerState } from '@transport/domain';

/** A vehicle owner: the fields the interface shows for an owner embedded in a driver, plus the record fields. */
export interface OwnerResponse {
  _id: string;
  name: string;
  phone: string;
  email: string;
  idType: string;
  idNumber: string;
  verified: boolean;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

/** Exactly the owner fields of the interface's driver listing (no record fields there). */
export type EmbeddedOwnerResponse = Pick<OwnerResponse, '_id' | 'name' | 'phone' | 'email' | 'idType' | 'idNumber' | 'verified'>;

export function toOwnerResponse(o: VehicleOwnerState): OwnerResponse {
  return {
    _id: o.id, name: o.name, phone: o.phone, email: o.email, idType: o.idType, idNumber: o.idNumber, verified: o.verified,
    createdAt: o.createdAt.toISOString(), updatedAt: o.updatedAt.toISOString(), __v: o.version,
  };
}

export function toEmbeddedOwner(o: VehicleOwnerState): EmbeddedOwnerResponse {
  return { _id: o.id, name: o.name, phone: o.phone, email: o.email, idType: o.idType, idNumber: o.idNumber, verified: o.verified };
}

import type { ApprovalChecklist, DriverState, VehicleOwnerState } from '@transport/domain';
import { toEmbeddedOwner, type EmbeddedOwnerResponse } from '../owners/owner.response';

export interface DriverResponse {
  _id: string;
  name: string;
  phone?: string;
  email?: string;
  license?: string;
  licenseClass: string;
  licenseExpiry: string;
  licenseIssueDate: string;
  idType: string;
  idNumber?: string;
  gender: string;
  online: boolean;
  busy: boolean;
  verified: boolean;
  approved: boolean;
  approvalChecklist?: ApprovalChecklist;
  /** Only in the response to POST /drivers/add, once. */
  activationKey?: string;
  dateActivated?: string;
  ownerID?: Partial<EmbeddedOwnerResponse>;
  walletAccount?: string;
  rating?: number;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

/** Personal and secret data an anonymous caller of GET /drivers/all never sees. */
export const DRIVER_FIELDS_HIDDEN_FROM_ANONYMOUS = ['phone', 'email', 'license', 'idNumber', 'walletAccount'] as const;
const OWNER_FIELDS_HIDDEN_FROM_ANONYMOUS = ['phone', 'email', 'idNumber'] as const;

export function toDriverResponse(
  d: DriverState,
  owner: VehicleOwnerState | undefined,
  options: { anonymous: boolean; activationKey?: string },
): DriverResponse {
  const out: DriverResponse = {
    _id: d.id,
    name: d.name,
    phone: d.phone,
    email: d.email,
    license: d.license,
    licenseClass: d.licenseClass,
    licenseExpiry: d.licenseExpiry.toISOString(),
    licenseIssueDate: d.licenseIssueDate.toISOString(),
    idType: d.idType,
    idNumber: d.idNumber,
    gender: d.gender,
    online: d.online,
    busy: d.busy,
    verified: d.verified,
    approved: d.approved,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    __v: d.version,
  };
  if (d.approvalChecklist) out.approvalChecklist = { ...d.approvalChecklist };
  if (options.activationKey) out.activationKey = options.activationKey;
  if (d.dateActivated) out.dateActivated = d.dateActivated.toISOString();
  if (owner) out.ownerID = toEmbeddedOwner(owner);
  if (d.walletAccount !== undefined) out.walletAccount = d.walletAccount;
  if (d.ratingCount > 0) out.rating = Math.round((d.ratingTotal / d.ratingCount) * 100) / 100;
  if (options.anonymous) {
    for (const field of DRIVER_FIELDS_HIDDEN_FROM_ANONYMOUS) delete out[field];
    if (out.ownerID) for (const field of OWNER_FIELDS_HIDDEN_FROM_ANONYMOUS) delete out.ownerID[field];
  }
  return out;
}

import { DomainError } from '../shared/domain-error';
import type { AssemblyRole } from './assembly-user';

/**
 * What each assembly role may do. An inspector records inspections, an approver approves (and revokes), an assembly
 * admin manages the assembly's users; nobody does another's duty. (The vehicle's own rule adds that its inspector
 * may not approve it.)
 */
export const DUTIES = {
  inspectVehicle: ['inspector'],
  approveVehicle: ['approver'],
  approveDriver: ['approver'],
  revokeDriver: ['approver'],
  // A new activation key goes to the driver's phone; whoever sends it vouches for the number, as an approver does.
  reissueActivationKey: ['approver'],
  // Renewed documents are recorded by whoever sees them at the assembly: an inspector at the roadside or an approver.
  renewDocuments: ['inspector', 'approver'],
  correctRecords: ['inspector', 'approver'],
  manageAssemblyUsers: ['admin'],
  // Any staff may write down an owner's appeal; an approver who took no part decides it (the inspection's rule).
  lodgeAppeal: ['inspector', 'approver', 'admin'],
  decideAppeal: ['approver'],
  setInspectionRules: ['admin'],
  // Registering owners, vehicles and drivers, verifying owners and linking vehicles: the assembly's office staff, never
  // an enforcer (who checks and fines, and changes no registration).
  registerRecords: ['inspector', 'approver', 'admin'],
  // The roadside (issue 47): enforcers check any vehicle and record offences.
  checkVehicles: ['enforcer'],
  recordOffences: ['enforcer'],
  // The assembly admin keeps the offence catalogue and reads the roadside check log.
  manageOffences: ['admin'],
  readCheckLog: ['admin'],
  // A contest is decided, and a notice cancelled, by a supervisor (never the officer who recorded it: the notice's rule).
  decideNotices: ['admin', 'approver'],
  // An approver or admin an assembly admin creates acts only once another admin (or the national admin) confirms it.
  confirmAssemblyUsers: ['admin'],
  // Signs of fraud (issue 46, item 6): the assembly admin reviews its flags and clears them, and sets their thresholds.
  reviewFraudSigns: ['admin'],
} as const satisfies Record<string, readonly AssemblyRole[]>;
export type Duty = keyof typeof DUTIES;

const WORDS: Record<Duty, string> = {
  inspectVehicle: 'inspecting a vehicle',
  approveVehicle: 'approving a vehicle',
  approveDriver: 'approving a driver',
  revokeDriver: "revoking a driver's approval",
  reissueActivationKey: 'sending a driver a new activation key',
  renewDocuments: 'recording a renewed document',
  correctRecords: 'correcting a record',
  manageAssemblyUsers: "managing an assembly's users",
  lodgeAppeal: "lodging an owner's appeal of an inspection",
  decideAppeal: 'deciding an appeal of an inspection',
  setInspectionRules: "setting an assembly's days to fix and to appeal",
  confirmAssemblyUsers: "confirming an assembly's new approvers and admins",
  registerRecords: 'registering or changing owners, vehicles and drivers',
  checkVehicles: 'checking a vehicle at the roadside',
  recordOffences: 'recording an offence',
  manageOffences: "keeping the assembly's offence catalogue",
  readCheckLog: 'reading the roadside check log',
  decideNotices: 'deciding or cancelling a notice',
  reviewFraudSigns: 'reviewing signs of fraud',
};

/** Refuses (DUTY_NOT_ALLOWED, 403) an assembly user whose role does not carry this duty. */
export function assertDuty(user: { readonly role: AssemblyRole }, duty: Duty): void {
  const allowed: readonly AssemblyRole[] = DUTIES[duty];
  if (!allowed.includes(user.role)) {
    throw new DomainError(
      'DUTY_NOT_ALLOWED',
      `${WORDS[duty][0].toUpperCase()}${WORDS[duty].slice(1)} is the duty of an assembly ${allowed.join(' or ')}; this user is an ${user.role === 'admin' ? 'assembly admin' : user.role}`,
      'role',
    );
  }
}

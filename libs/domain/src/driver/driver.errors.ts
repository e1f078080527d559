import { DomainError } from '../shared/domain-error';
import type { ApprovalItem } from './approval-checklist';

export const DriverErrors = {
  alreadyActivated: () => new DomainError('DRIVER_ALREADY_ACTIVATED', 'The driver has already activated the account'),
  activationTooSoon: (seconds: number) =>
    new DomainError(
      'DRIVER_ACTIVATION_TOO_SOON',
      `A wrong activation key was tried; the next try is taken in ${seconds} s`,
    ),
  activationKeyExpired: () =>
    new DomainError(
      'DRIVER_ACTIVATION_KEY_EXPIRED',
      'The activation key has expired: ask the assembly to send a new one to your phone',
    ),
  wrongActivationKey: (retryAt: Date, at: Date) =>
    new DomainError(
      'DRIVER_ACTIVATION_KEY_INVALID',
      `The activation key is wrong; the next try is taken in ${Math.max(1, Math.ceil((retryAt.getTime() - at.getTime()) / 1000))} s`,
    ),
  ownerNotInAssembly: (ownerId: string) =>
    new DomainError(
      'OWNER_NOT_FOUND',
      `ownerID ${ownerId} names no vehicle owner of the driver's assembly; find owners with GET /vehicles/owner/search`,
      'ownerID',
    ),
  approverSetContact: () =>
    new DomainError(
      'DRIVER_APPROVER_SET_CONTACT',
      'You registered this driver or set their phone or email: another approver must approve the driver (separation of duties)',
    ),
  keySenderSetPhone: () =>
    new DomainError(
      'DRIVER_KEY_SENDER_SET_PHONE',
      "You set this driver's phone number: another approver must send the activation key to it (separation of duties)",
    ),
  alreadyApproved: () => new DomainError('DRIVER_ALREADY_APPROVED', 'The driver is already approved'),
  checklistFailed: (items: ApprovalItem[]) =>
    new DomainError('DRIVER_CHECKLIST_FAILED', `Approval needs every check passed; failed: ${items.join(', ')}`),
  licenseExpired: () => new DomainError('DRIVER_LICENSE_EXPIRED', "The driver's licence has expired"),
  notApproved: () => new DomainError('DRIVER_NOT_APPROVED', 'The driver is not approved'),
  notVerified: () => new DomainError('DRIVER_NOT_VERIFIED', 'The driver has not activated the account'),
  offline: () => new DomainError('DRIVER_OFFLINE', 'An offline driver cannot be busy'),
  busy: () => new DomainError('DRIVER_BUSY', 'A busy driver cannot go offline; finish the trip first'),
  invalidRating: () => new DomainError('INVALID_RATING', 'A rating is a whole number of stars from 1 to 5', 'rating'),
  licenseDates: () =>
    new DomainError(
      'INVALID_DATES',
      'licenseExpiry must be after licenseIssueDate, which cannot be in the future',
      'licenseExpiry',
    ),
};

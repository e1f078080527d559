import { DomainError } from '../shared/domain-error';
import type { InspectionItem } from './inspection-checklist';

export const VehicleErrors = {
  useProhibited: (items: InspectionItem[]) =>
    new DomainError(
      'VEHICLE_USE_PROHIBITED',
      `The last inspection found dangerous defects (${items.join(', ')}): the vehicle may not be used or approved until a new inspection passes`,
    ),
  reinspectionNotOpen: () =>
    new DomainError(
      'REINSPECTION_NOT_OPEN',
      'No re-inspection is open for this vehicle (only after an inspection failed with major defects, or an appeal sent one back): make a full inspection',
    ),
  reinspectionWindowClosed: () =>
    new DomainError(
      'REINSPECTION_WINDOW_CLOSED',
      'The re-inspection window has ended (reinspectionDueBy): a full inspection is due',
    ),
  reinspectorTookPart: () =>
    new DomainError(
      'REINSPECTOR_TOOK_PART',
      'An appeal sent this inspection back for re-inspection by another inspector: not the one who made it',
    ),
  inspectionSuperseded: () =>
    new DomainError('INSPECTION_SUPERSEDED', 'A later inspection of the vehicle replaced this one'),
  notInspected: () =>
    new DomainError('VEHICLE_NOT_INSPECTED', 'The vehicle has not been inspected; inspect it before approval'),
  inspectionFailed: (items: InspectionItem[]) =>
    new DomainError(
      'VEHICLE_INSPECTION_FAILED',
      `The last inspection failed on: ${items.join(', ')}; re-inspect once fixed`,
    ),
  madeInFuture: () =>
    new DomainError(
      'INSPECTION_MADE_IN_FUTURE',
      "madeAt is in the future: check the device's clock (a few minutes ahead are allowed)",
      'madeAt',
    ),
  madeTooLongAgo: (hours: number) =>
    new DomainError(
      'INSPECTION_MADE_TOO_LONG_AGO',
      `madeAt is more than ${hours} hours ago: an inspection kept that long must be made again`,
      'madeAt',
    ),
  inspectionIncomplete: (items: InspectionItem[]) =>
    new DomainError(
      'VEHICLE_INSPECTION_INCOMPLETE',
      `The last inspection recorded no result for: ${items.join(', ')} (an older checklist); re-inspect before approval`,
    ),
  alreadyApproved: () => new DomainError('VEHICLE_ALREADY_APPROVED', 'The vehicle is already approved'),
  approverIsInspector: () =>
    new DomainError(
      'VEHICLE_APPROVER_IS_INSPECTOR',
      'The inspector of a vehicle may not approve it: another approver must (separation of duties)',
    ),
  registrationNumberMissing: () =>
    new DomainError('VEHICLE_REGISTRATION_NUMBER_MISSING', 'A vehicle needs a registration number before approval'),
  roadWorthyMissing: () =>
    new DomainError('VEHICLE_ROADWORTHY_MISSING', 'roadWorthyExpiryDate is required for approval'),
  roadWorthyExpired: () => new DomainError('VEHICLE_ROADWORTHY_EXPIRED', 'The roadworthy certificate has expired'),
  insuranceMissing: () => new DomainError('VEHICLE_INSURANCE_MISSING', 'insuranceExpiryDate is required for approval'),
  insuranceExpired: () => new DomainError('VEHICLE_INSURANCE_EXPIRED', 'The insurance has expired'),
  notApproved: () => new DomainError('VEHICLE_NOT_APPROVED', 'Only an approved vehicle can be linked to a driver'),
  driverNotEligible: () =>
    new DomainError(
      'DRIVER_NOT_ELIGIBLE',
      'Only an approved driver who has activated the account can be linked to a vehicle',
    ),
  netWeightAboveGross: () =>
    new DomainError('INVALID_WEIGHTS', 'netWeight cannot be more than grossWeight', 'netWeight'),
  makeYearAfterRegistration: () =>
    new DomainError('INVALID_DATES', 'makeYear cannot be after yearOfRegistration', 'makeYear'),
  dateInFuture: (field: string) => new DomainError('INVALID_DATES', `${field} cannot be in the future`, field),
};

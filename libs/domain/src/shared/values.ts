import { DomainError } from './domain-error';

export function boundedNumber(value: number, field: string, min: number, max: number, integer = false): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw new DomainError(
      'INVALID_NUMBER',
      `${field} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
      field,
    );
  }
  return value;
}

export function validDate(value: Date, field: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new DomainError('INVALID_DATE', `${field} must be a valid date`, field);
  }
  return new Date(value.getTime());
}

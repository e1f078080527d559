import { DomainError, isDomainError } from './domain-error';
import { ERROR_KINDS, type DomainErrorCode } from './error-codes';

describe('DomainError', () => {
  it('carries a stable code, a kind (rule by default) and an optional field', () => {
    const error = new DomainError('VEHICLE_NOT_INSPECTED', 'inspect the vehicle first');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'DomainError', code: 'VEHICLE_NOT_INSPECTED', kind: 'rule', field: undefined });
    expect(new DomainError('INVALID_VIN', 'bad', 'vin').field).toBe('vin');
  });

  it('is recognised by isDomainError and other errors are not', () => {
    expect(isDomainError(new DomainError('NOT_FOUND', 'x'))).toBe(true);
    expect(isDomainError(new Error('x'))).toBe(false);
    expect(isDomainError('X')).toBe(false);
  });

  it('takes its kind from the catalogue, so a code always means the same status', () => {
    expect(new DomainError('NOT_FOUND', 'x').kind).toBe('not_found');
    expect(new DomainError('OWNER_NOT_FOUND', 'x', 'ownerID').kind).toBe('rule');
    expect(new DomainError('INVALID_VIN', 'x').kind).toBe('validation');
    expect(new DomainError('VEHICLE_ALREADY_APPROVED', 'x').kind).toBe('conflict');
    for (const code of Object.keys(ERROR_KINDS) as DomainErrorCode[])
      expect(new DomainError(code, 'x').kind).toBe(ERROR_KINDS[code]);
  });
});

import { DomainError, isDomainError } from './domain-error';

describe('DomainError', () => {
  it('carries a stable code, a kind (rule by default) and an optional field', () => {
    const error = new DomainError('VEHICLE_NOT_INSPECTED', 'inspect the vehicle first');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'DomainError', code: 'VEHICLE_NOT_INSPECTED', kind: 'rule', field: undefined });
    expect(new DomainError('INVALID_VIN', 'bad', 'validation', 'vin').field).toBe('vin');
  });

  it('is recognised by isDomainError and other errors are not', () => {
    expect(isDomainError(new DomainError('X', 'x'))).toBe(true);
    expect(isDomainError(new Error('x'))).toBe(false);
    expect(isDomainError('X')).toBe(false);
  });
});

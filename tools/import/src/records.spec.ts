import { DomainError } from '@transport/domain';
import { RecordRefused, refusalOf, refuse, type RefusalCode } from './records';

describe('why a record is refused', () => {
  it("carries a code of one typed union: the domain's codes and the importer's own", () => {
    expect(() => refuse('INVALID_FIELD', 'name must be a string')).toThrow(RecordRefused);
    expect(refusalOf(new DomainError('INVALID_VIN', 'vin must be 17 characters'))?.code).toBe('INVALID_VIN');
    expect(refusalOf(new Error('a bug'))).toBeUndefined();
    const codes: RefusalCode[] = ['REFERENCE_MISSING', 'DUPLICATE_VALUE', 'DATABASE_REFUSED', 'LINE_TOO_LONG'];
    expect(codes).toHaveLength(4);
    // @ts-expect-error: a code outside the union does not compile, so the report's codes stay a known list
    expect(() => refuse('SOMETHING_ELSE', 'x')).toThrow(RecordRefused);
  });
});

import { allPassed } from '../testing/fixtures';
import {
  driverStanding,
  ownerStanding,
  registrationSearchKey,
  searchCharacters,
  searchTerms,
  vehicleStanding,
} from './registry-search';

const PASSED = allPassed();

describe('registry search terms', () => {
  it('gives every spelling of a plate the same key as the stored plate', () => {
    const stored = registrationSearchKey('GR 1001-24');
    for (const typed of ['GR1001-24', 'gr 1001 24', 'Gr-1001-24', '  gr  1001  24 ']) {
      expect(searchTerms(typed).key).toBe(stored);
    }
    expect(stored).toContain(searchTerms('1001').key);
  });

  it('reads the letter O as the digit zero, in the stored plate and in the query alike', () => {
    expect(searchTerms('GR 1OO1-24').key).toBe(registrationSearchKey('GR 1001-24'));
    expect(searchTerms('gr 1o01').key).toBe('GR1001');
    expect(registrationSearchKey('GO 1234-20')).toBe(searchTerms('G0 1234').key + '20');
  });

  it('reads a phone number in local or international form, and only when the query looks like one', () => {
    expect(searchTerms('0244 123 456').phones).toEqual(['0244123456', '+233244123456']);
    expect(searchTerms('+233 24412').phones).toEqual(['+23324412', '024412']);
    expect(searchTerms('mensah').phones).toEqual([]);
    expect(searchTerms('GR 1001').phones).toEqual([]);
  });

  it('keeps names as typed (spaces collapsed) and licence numbers upper case', () => {
    expect(searchTerms('  Ama   Owusu ')).toMatchObject({ text: 'Ama Owusu', upper: 'AMA OWUSU' });
    expect(searchTerms('dl-0001').upper).toBe('DL-0001');
  });

  it('counts letters and digits of any script, not punctuation or spaces', () => {
    expect(searchCharacters('a -')).toBe(1);
    expect(searchCharacters('Ɔkɔ')).toBe(3);
    expect(searchCharacters('%%%___')).toBe(0);
  });
});

describe('registry standings', () => {
  it('names where a vehicle stands, a failed inspection apart from one awaiting approval', () => {
    expect(vehicleStanding({ approved: false, inspected: false })).toBe('awaiting_inspection');
    expect(vehicleStanding({ approved: false, inspected: true, inspectionChecklist: PASSED })).toBe(
      'awaiting_approval',
    );
    expect(
      vehicleStanding({ approved: false, inspected: true, inspectionChecklist: { ...PASSED, brakes: false } }),
    ).toBe('inspection_failed');
    expect(vehicleStanding({ approved: true, inspected: true, inspectionChecklist: PASSED })).toBe('approved');
    // A checklist of an older version (imported) with items not recorded: inspected again before approval.
    const { brakes: _notRecorded, ...older } = PASSED;
    expect(vehicleStanding({ approved: false, inspected: true, inspectionChecklist: older })).toBe(
      'awaiting_inspection',
    );
  });

  it('names where a driver and an owner stand', () => {
    expect(driverStanding({ approved: true })).toBe('approved');
    expect(driverStanding({ approved: false })).toBe('awaiting_approval');
    expect(
      driverStanding({ approved: false, revocation: { reason: 'r', revokedBy: 'x', dateRevoked: new Date(0) } }),
    ).toBe('revoked');
    expect(ownerStanding({ verified: true })).toBe('verified');
    expect(ownerStanding({ verified: false })).toBe('unverified');
  });
});

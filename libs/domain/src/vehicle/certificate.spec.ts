import { allPassed, APPROVER, days, INSPECTOR, ports, T0, vehicleInput } from '../testing/fixtures';
import { certificateVerdict, firstNameOf, vouchedDriver, type CertificateClaims } from './certificate';
import { Vehicle } from './vehicle';

const approved = () => {
  const v = Vehicle.register(vehicleInput(), ports().ids, T0);
  v.inspect(allPassed(), INSPECTOR, days(1));
  v.approve(APPROVER, days(2));
  return v;
};

const claimsOf = (v: Vehicle): CertificateClaims => {
  const s = v.toState();
  return { vehicleId: s.id, registrationNumber: s.registrationNumber!, approvedAt: s.dateApproved!, issuedAt: days(3) };
};

describe('certificateVerdict', () => {
  it('is valid while the approval it names stands and every document it shows is current', () => {
    const v = approved();
    const verdict = certificateVerdict(claimsOf(v), v.toState(), days(300), days(3));
    expect(verdict.state).toBe('valid');
    expect(verdict).toMatchObject({
      documents: expect.arrayContaining([expect.objectContaining({ document: 'driverLicense', expired: false })]),
    });
  });

  it('names each document that has ended when the certificate is expired', () => {
    const v = approved();
    const state = v.toState();
    const verdict = certificateVerdict(
      claimsOf(v),
      state,
      days(10),
      new Date(state.insuranceExpiryDate!.getTime() + 1),
    );
    expect(verdict).toMatchObject({ state: 'expired' });
    expect(verdict.state === 'expired' && verdict.expiredDocuments).toEqual(
      expect.arrayContaining(['insurance', 'driverLicense']),
    );
  });

  it('ends on the expiry instant itself, as compliance does', () => {
    const v = approved();
    const at = v.toState().roadWorthyExpiryDate!;
    const verdict = certificateVerdict(claimsOf(v), v.toState(), undefined, at);
    expect(verdict.state === 'expired' && verdict.expiredDocuments).toContain('roadworthy');
  });

  it('is withdrawn once the approval is withdrawn (a failed re-inspection)', () => {
    const v = approved();
    const claims = claimsOf(v);
    v.inspect({ ...allPassed(), brakes: false }, INSPECTOR, days(4));
    expect(certificateVerdict(claims, v.toState(), undefined, days(5))).toEqual({
      state: 'withdrawn',
      reason: 'approval_withdrawn',
    });
  });

  it('stays withdrawn after the vehicle is approved again: the new approval needs a new sticker', () => {
    const v = approved();
    const claims = claimsOf(v);
    v.correct({ registrationNumber: 'GW 555-26' }, days(4));
    v.approve(APPROVER, days(5));
    expect(certificateVerdict(claims, v.toState(), undefined, days(6))).toEqual({
      state: 'withdrawn',
      reason: 'approved_again',
    });
    expect(certificateVerdict(claimsOf(v), v.toState(), undefined, days(6)).state).toBe('valid');
  });

  it('is withdrawn when the vehicle is no longer on record', () => {
    expect(certificateVerdict(claimsOf(approved()), undefined, undefined, days(3))).toEqual({
      state: 'withdrawn',
      reason: 'vehicle_removed',
    });
  });

  it('compares the approval to the second, as the token carries it', () => {
    const v = approved();
    const claims = { ...claimsOf(v), approvedAt: new Date(Math.floor(days(2).getTime() / 1000) * 1000) };
    expect(certificateVerdict(claims, v.toState(), undefined, days(3)).state).toBe('valid');
  });
});

describe('firstNameOf', () => {
  it('keeps the first word of a name only', () => {
    expect(firstNameOf('  Kwame   Nkrumah Mensah ')).toBe('Kwame');
  });
});

describe('vouchedDriver', () => {
  const driver = (approved: boolean) => ({ toState: () => ({ approved }) });

  it('vouches for a linked driver whose approval stands', () => {
    const d = driver(true);
    expect(vouchedDriver(d)).toBe(d);
  });

  it('vouches for nobody when the linked driver is not approved (revoked, or never approved), or none is linked', () => {
    expect(vouchedDriver(driver(false))).toBeUndefined();
    expect(vouchedDriver(undefined)).toBeUndefined();
  });
});

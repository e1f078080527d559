import { DomainError } from '../shared/domain-error';
import { SeededRandomSource } from '../testing/fakes';
import { PlainTextHasher } from '../testing/fakes';
import { APPROVER, days, INSPECTOR, driverInput, OWNER, passedDriverChecklist, ports, T0 } from '../testing/fixtures';
import { newActivationKey } from './activation-key';
import { failedApprovalItems } from './approval-checklist';
import { assertOwnerOfDriverAssembly, Driver } from './driver';

const hasher = new PlainTextHasher();
const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).code;
  }
  throw new Error('expected a DomainError');
};

function registered(over = {}) {
  return Driver.register(driverInput(over), ports(), T0);
}

/** An hour after registration, within the key's 24 h. */
const soon = new Date(T0.getTime() + 3_600_000);
/** Client addresses as the caller keys them (opaque to the domain). */
const PHONE = 'address-of-the-drivers-phone';
const STRANGER = 'address-of-a-stranger';

function working() {
  const { driver, activationKey } = registered();
  driver.activate(activationKey, soon, hasher, PHONE);
  driver.approve(passedDriverChecklist, APPROVER, days(2));
  return driver;
}

describe('Driver registration', () => {
  it("keeps the driver's language (English when none is given), refuses one not spoken here, and corrects it", () => {
    expect(registered().driver.toState().language).toBe('en');
    const { driver } = registered({ language: ' TW ' });
    expect(driver.toState().language).toBe('tw');
    expect(codeOf(() => registered({ language: 'fr' }))).toBe('INVALID_LANGUAGE');
    expect(driver.correct({ language: 'ha' }, INSPECTOR, soon)).toEqual(['language']);
    expect(driver.toState().language).toBe('ha');
    expect(codeOf(() => driver.correct({ language: 'xx' }, INSPECTOR, soon))).toBe('INVALID_LANGUAGE');
  });

  it('starts unapproved, unverified, offline, not busy, unrated, with a six-digit key kept only as a hash', () => {
    const { driver, activationKey } = registered({ ownerId: OWNER, walletAccount: '233244555666' });
    expect(activationKey).toMatch(/^\d{6}$/);
    const s = driver.toState();
    expect(s).toMatchObject({
      approved: false,
      verified: false,
      online: false,
      busy: false,
      ratingCount: 0,
      email: 'kojo.antwi@example.com',
      phone: '+233244555666',
      license: 'DL-0001-2020',
      ownerId: OWNER,
    });
    expect(s.activationKeyHash).toBe(`plain:${activationKey}`);
    expect(JSON.stringify(s)).not.toContain(`"${activationKey}"`);
    expect(driver.rating).toBeUndefined();
    expect(driver.pullEvents().map((e) => e.type)).toEqual(['DriverRegistered']);
  });

  it.each([
    ['licence issued in the future', { licenseIssueDate: days(1) }, 'INVALID_DATES'],
    ['licence expiring before issue', { licenseExpiry: days(-900) }, 'INVALID_DATES'],
    ['unknown licence class', { licenseClass: 'Z' }, 'INVALID_VALUE'],
    ['unknown id type', { idType: 'library_card' }, 'INVALID_VALUE'],
    ['unknown gender', { gender: 42 }, 'INVALID_VALUE'],
    ['bad licence number', { license: '!' }, 'INVALID_DOCUMENT_NUMBER'],
    ['non-string id number', { idNumber: 7 }, 'INVALID_DOCUMENT_NUMBER'],
    ['bad phone', { phone: '12345' }, 'INVALID_PHONE'],
    ['bad email', { email: 'kojo@' }, 'INVALID_EMAIL'],
    ['bad owner id', { ownerId: 'x' }, 'INVALID_ID'],
    ['empty wallet', { walletAccount: ' ' }, 'INVALID_TEXT'],
  ])('refuses %s', (_name, over, code) => {
    expect(codeOf(() => registered(over))).toBe(code);
  });
});

describe('Driver activation', () => {
  it('verifies the driver with the right key', () => {
    const { driver, activationKey } = registered();
    expect(driver.activate(activationKey, soon, hasher, PHONE)).toEqual({ activated: true });
    expect(driver.toState()).toMatchObject({ verified: true, dateActivated: soon, activationAttempts: 0 });
  });

  it('refuses a key past its 24 hours; a reissued key works for another 24', () => {
    const { driver, activationKey } = registered();
    expect(driver.toState().activationKeyExpiresAt).toEqual(days(1));
    expect(codeOf(() => driver.activate(activationKey, days(1), hasher, PHONE))).toBe('DRIVER_ACTIVATION_KEY_EXPIRED');
    const key = driver.reissueActivationKey({ random: new SeededRandomSource(9), hasher }, INSPECTOR, days(2));
    expect(driver.toState().activationKeyExpiresAt).toEqual(days(3));
    expect(driver.activate(key, days(2), hasher, PHONE)).toEqual({ activated: true });
  });

  it('slows the next try from an address after each of its wrong keys (doubling, at most 15 minutes)', () => {
    const { driver, activationKey } = registered();
    let at = soon;
    const delays: number[] = [];
    for (let i = 1; i <= 50; i++) {
      const outcome = driver.activate('99999x', at, hasher, STRANGER);
      expect(outcome).toMatchObject({ activated: false, error: { code: 'DRIVER_ACTIVATION_KEY_INVALID' } });
      const retryAt = (outcome as { retryAt: Date }).retryAt;
      delays.push((retryAt.getTime() - at.getTime()) / 1000);
      // A try from that address before its delay is over is refused and counts for nothing.
      expect(codeOf(() => driver.activate(activationKey, at, hasher, STRANGER))).toBe('DRIVER_ACTIVATION_TOO_SOON');
      expect(driver.activationWaitSeconds(STRANGER, at)).toBe(delays.at(-1));
      at = retryAt;
    }
    expect(delays.slice(0, 5)).toEqual([1, 2, 4, 8, 16]);
    expect(Math.max(...delays)).toBe(900);
    expect(driver.toState().activationAttempts).toBe(50);
    // Fifty wrong keys later, the right key still works from there once the delay is over.
    expect(driver.activate(activationKey, at, hasher, STRANGER)).toEqual({ activated: true });
    expect(driver.toState().activationTries).toEqual({});
  });

  it("never delays the driver's own phone for a stranger's wrong keys", () => {
    const { driver, activationKey } = registered();
    for (let i = 0; i < 20; i++) driver.activate('000000', soon, hasher, `${STRANGER}-${i}`);
    driver.activate('000000', soon, hasher, STRANGER);
    expect(driver.activationWaitSeconds(PHONE, soon)).toBe(0);
    expect(driver.activate(activationKey, soon, hasher, PHONE)).toEqual({ activated: true });
  });

  it('keeps the tries of the 50 addresses whose delays end last', () => {
    const { driver } = registered();
    for (let i = 0; i < 60; i++) driver.activate('000000', new Date(soon.getTime() + i * 1000), hasher, `a${i}`);
    const kept = Object.keys(driver.toState().activationTries);
    expect(kept).toHaveLength(50);
    expect(kept).not.toContain('a9');
    expect(kept).toContain('a10');
    expect(kept).toContain('a59');
  });

  it('lifts every delay when a key is reissued', () => {
    const { driver } = registered();
    driver.activate('99999x', soon, hasher, PHONE);
    const key = driver.reissueActivationKey({ random: new SeededRandomSource(9), hasher }, INSPECTOR, soon);
    expect(driver.activationWaitSeconds(PHONE, soon)).toBe(0);
    expect(driver.activate(key, soon, hasher, PHONE)).toEqual({ activated: true });
  });

  it('voids the key when the phone number is corrected before activation; a reissued key works', () => {
    const { driver, activationKey } = registered();
    expect(driver.correct({ phone: '+233244000111' }, INSPECTOR, soon)).toEqual(['phone']);
    expect(driver.pullEvents().map((e) => e.type)).toEqual([
      'DriverRegistered',
      'DriverCorrected',
      'DriverActivationKeyVoided',
    ]);
    expect(codeOf(() => driver.activate(activationKey, soon, hasher, PHONE))).toBe('DRIVER_ACTIVATION_KEY_EXPIRED');
    // Already void, or activated: nothing more to void.
    expect(driver.voidActivationKey(soon)).toBe(false);
    const key = driver.reissueActivationKey({ random: new SeededRandomSource(9), hasher }, APPROVER, soon);
    expect(driver.activate(key, soon, hasher, PHONE)).toEqual({ activated: true });
    expect(driver.voidActivationKey(days(1))).toBe(false);
  });

  it('refuses a non-string key as a wrong key', () => {
    const { driver } = registered();
    expect(driver.activate(123456 as never, soon, hasher, PHONE)).toMatchObject({ activated: false });
  });

  it('refuses activating or reissuing for an activated driver', () => {
    const driver = working();
    expect(codeOf(() => driver.activate('000000', days(3), hasher, PHONE))).toBe('DRIVER_ALREADY_ACTIVATED');
    expect(
      codeOf(() => driver.reissueActivationKey({ random: new SeededRandomSource(1), hasher }, INSPECTOR, days(3))),
    ).toBe('DRIVER_ALREADY_ACTIVATED');
  });

  it('draws keys uniformly, redrawing values that would bias the result', () => {
    const draws = [
      [0xff, 0xff, 0xff, 0xff],
      [0, 0, 0, 42],
    ];
    const random = { bytes: () => new Uint8Array(draws.shift()!) };
    expect(newActivationKey(random)).toBe('000042');
  });
});

describe('Driver approval', () => {
  it('approves with all four checks passed and a valid licence', () => {
    const driver = working();
    expect(driver.toState()).toMatchObject({
      approved: true,
      approvedBy: APPROVER,
      dateApproved: days(2),
      approvalChecklist: passedDriverChecklist,
    });
  });

  it('refuses a failed check, naming it', () => {
    const { driver } = registered();
    expect(() => driver.approve({ ...passedDriverChecklist, criminalRecord: false }, APPROVER, days(1))).toThrow(
      /criminalRecord/,
    );
    expect(driver.approved).toBe(false);
  });

  it('refuses an expired licence', () => {
    const { driver } = registered({ licenseExpiry: days(5) });
    expect(codeOf(() => driver.approve(passedDriverChecklist, APPROVER, days(5)))).toBe('DRIVER_LICENSE_EXPIRED');
  });

  it('refuses approving twice', () => {
    expect(codeOf(() => working().approve(passedDriverChecklist, APPROVER, days(3)))).toBe('DRIVER_ALREADY_APPROVED');
  });

  it.each([
    [
      'missing and extra items',
      { validLicense: true, x: true },
      /unknown items: x; needs true\/false for: hasSmartPhone/,
    ],
    ['only missing items', { validLicense: true }, /^approvalChecklist needs/],
    ['only extra items', { ...passedDriverChecklist, x: false }, /^approvalChecklist unknown items: x$/],
    ['a list', [], /must be an object/],
  ])('refuses a checklist with %s', (_name, checklist, message) => {
    expect(() => registered().driver.approve(checklist, APPROVER, days(1))).toThrow(message);
  });

  it('revokes approval with a reason, taking the driver offline and not busy', () => {
    const driver = working();
    driver.goOnline(days(3));
    driver.setBusy(true, days(3));
    driver.revokeApproval('complaints', APPROVER, days(4));
    const s = driver.toState();
    expect(s).toMatchObject({
      approved: false,
      online: false,
      busy: false,
      revocation: { reason: 'complaints', revokedBy: APPROVER, dateRevoked: days(4) },
    });
    expect(s).not.toHaveProperty('approvedBy');
    expect(codeOf(() => driver.revokeApproval('again', APPROVER, days(5)))).toBe('DRIVER_NOT_APPROVED');
    driver.approve(passedDriverChecklist, APPROVER, days(6));
    expect(driver.toState()).not.toHaveProperty('revocation');
  });
});

describe('Driver availability', () => {
  it('goes online only when approved and verified; busy only when online; not offline while busy', () => {
    const unapproved = registered().driver;
    expect(codeOf(() => unapproved.goOnline(days(1)))).toBe('DRIVER_NOT_APPROVED');
    const unverified = registered().driver;
    unverified.approve(passedDriverChecklist, APPROVER, days(1));
    expect(codeOf(() => unverified.goOnline(days(1)))).toBe('DRIVER_NOT_VERIFIED');

    const driver = working();
    expect(codeOf(() => driver.setBusy(true, days(3)))).toBe('DRIVER_OFFLINE');
    expect(driver.goOnline(days(3))).toBe(true);
    expect(driver.goOnline(days(3))).toBe(false);
    expect(driver.setBusy(true, days(3))).toBe(true);
    expect(driver.setBusy(true, days(3))).toBe(false);
    expect(codeOf(() => driver.goOffline(days(3)))).toBe('DRIVER_BUSY');
    expect(driver.setBusy(false, days(4))).toBe(true);
    expect(driver.goOffline(days(4))).toBe(true);
    expect(driver.goOffline(days(4))).toBe(false);
  });

  it('keeps a running average of 1-5 star ratings', () => {
    const driver = working();
    driver.rate(5, days(3));
    driver.rate(4, days(3));
    driver.rate(4, days(3));
    expect(driver.rating).toBe(4.33);
    expect(codeOf(() => driver.rate(6, days(3)))).toBe('INVALID_RATING');
    expect(codeOf(() => driver.rate(2.5, days(3)))).toBe('INVALID_RATING');
  });

  it('restores from state', () => {
    const d = Driver.restore({ ...working().toState(), version: 3 });
    expect([d.version, d.approved, d.verified, typeof d.id]).toEqual([3, true, true, 'string']);
  });
});

describe('Driver licence renewal', () => {
  it('records a renewed licence, which an expired driver needs before approval', () => {
    const { driver, activationKey } = registered({ licenseExpiry: days(10) });
    driver.activate(activationKey, soon, hasher, PHONE);
    expect(codeOf(() => driver.approve(passedDriverChecklist, APPROVER, days(11)))).toBe('DRIVER_LICENSE_EXPIRED');
    driver.renewLicense(days(800), days(11));
    driver.approve(passedDriverChecklist, APPROVER, days(11));
    expect(driver.toState()).toMatchObject({ approved: true, licenseExpiry: days(800) });
    const event = driver.pullEvents().find((e) => e.type === 'DriverLicenseRenewed');
    expect(event?.data).toEqual({ expiry: days(800), previous: days(10) });
  });

  it('refuses an earlier or past expiry, changing nothing', () => {
    const driver = working();
    const before = driver.toState();
    expect(codeOf(() => driver.renewLicense(days(399), days(3)))).toBe('RENEWAL_NOT_LATER');
    expect(codeOf(() => driver.renewLicense(days(2), days(3)))).toBe('RENEWAL_EXPIRED');
    expect(driver.toState()).toEqual(before);
  });
});

describe('Driver corrections', () => {
  it('corrects contact details and the wallet without touching the approval', () => {
    const driver = working();
    driver.pullEvents();
    expect(
      driver.correct(
        { name: 'Kojo Antwi', phone: '+233244555666', email: 'KOJO.ANTWI@example.com' },
        INSPECTOR,
        days(3),
      ),
    ).toEqual([]);
    expect(driver.pullEvents()).toEqual([]);
    expect(
      driver.correct(
        { name: 'Kojo A. Antwi', walletAccount: '233244000111', gender: 'male', email: undefined },
        INSPECTOR,
        days(3),
      ),
    ).toEqual(['name', 'walletAccount']);
    expect(driver.toState()).toMatchObject({ approved: true, name: 'Kojo A. Antwi', walletAccount: '233244000111' });
    expect(driver.pullEvents().map((e) => [e.type, e.data])).toEqual([
      ['DriverCorrected', { fields: ['name', 'walletAccount'] }],
    ]);
  });

  it('sends an approved driver back for approval when the licence is corrected, taking them offline', () => {
    const driver = working();
    driver.goOnline(days(3));
    driver.pullEvents();
    expect(driver.correct({ license: 'DL-0009-2020', licenseClass: 'C' }, INSPECTOR, days(4))).toEqual([
      'license',
      'licenseClass',
    ]);
    expect(driver.toState()).toMatchObject({ approved: false, online: false, busy: false, license: 'DL-0009-2020' });
    expect(driver.toState().approvedBy).toBeUndefined();
    expect(driver.pullEvents().map((e) => e.type)).toEqual(['DriverCorrected', 'DriverApprovalWithdrawn']);
    // Unapproved, a licence correction is just that.
    expect(driver.correct({ licenseIssueDate: days(-700) }, INSPECTOR, days(5))).toEqual(['licenseIssueDate']);
    expect(driver.pullEvents().map((e) => e.type)).toEqual(['DriverCorrected']);
  });

  it('refuses the identity document once approved, and dates that break the licence rule', () => {
    const { driver } = registered();
    expect(driver.correct({ idNumber: 'GHA-700000009-9' }, INSPECTOR, days(1))).toEqual(['idNumber']);
    expect(codeOf(() => driver.correct({ licenseIssueDate: days(2) }, INSPECTOR, days(1)))).toBe('INVALID_DATES');
    expect(codeOf(() => driver.correct({ licenseIssueDate: days(500) }, INSPECTOR, days(600)))).toBe('INVALID_DATES');
    expect(codeOf(() => driver.correct({ licenseClass: 'Z' }, INSPECTOR, days(1)))).toBe('INVALID_VALUE');
    const approved = working();
    expect(codeOf(() => approved.correct({ idType: 'passport' }, INSPECTOR, days(3)))).toBe('CORRECTION_NOT_ALLOWED');
    expect(approved.toState().approved).toBe(true);
  });
});

describe('Driver contact set by staff (separation of duties)', () => {
  const SECOND_APPROVER = '65a000000000000000000009';
  const keyPorts = { random: new SeededRandomSource(9), hasher };

  it('refuses the approver who corrected the phone of a pending driver the key to it and the approval', () => {
    const { driver } = registered();
    expect(driver.toState().phoneSetBy).toBeUndefined();
    expect(driver.correct({ phone: '+233244000111' }, APPROVER, soon)).toEqual(['phone']);
    expect(driver.toState()).toMatchObject({ phoneSetBy: APPROVER });
    expect(driver.toState().emailSetBy).toBeUndefined();
    const before = driver.toState();
    expect(codeOf(() => driver.reissueActivationKey(keyPorts, APPROVER, soon))).toBe('DRIVER_KEY_SENDER_SET_PHONE');
    expect(driver.toState()).toEqual(before);
    // Another person vouches for the number by sending the key; the driver activates; still not the one who set it.
    const key = driver.reissueActivationKey(keyPorts, SECOND_APPROVER, soon);
    expect(driver.activate(key, soon, hasher, PHONE)).toEqual({ activated: true });
    expect(codeOf(() => driver.approve(passedDriverChecklist, APPROVER, days(2)))).toBe('DRIVER_APPROVER_SET_CONTACT');
    expect(driver.approved).toBe(false);
    driver.approve(passedDriverChecklist, SECOND_APPROVER, days(2));
    expect(driver.toState()).toMatchObject({ approved: true, approvedBy: SECOND_APPROVER, phoneSetBy: APPROVER });
  });

  it('refuses the approval to whoever set the email, and to staff who registered the driver', () => {
    const { driver, activationKey } = registered();
    driver.correct({ email: 'kojo.a@example.com' }, APPROVER, soon);
    expect(driver.toState()).toMatchObject({ emailSetBy: APPROVER });
    expect(driver.toState().phoneSetBy).toBeUndefined();
    // The email is not where the key goes: its corrector may still send the key.
    expect(driver.reissueActivationKey(keyPorts, APPROVER, soon)).toMatch(/^\d{6}$/);
    driver.activate(activationKey, soon, hasher, PHONE);
    expect(codeOf(() => driver.approve(passedDriverChecklist, APPROVER, days(2)))).toBe('DRIVER_APPROVER_SET_CONTACT');

    // Staff who registered a driver sent the first key to the number they typed: another is theirs to send; the
    // approval is not.
    const byStaff = Driver.register(driverInput({ registeredBy: APPROVER }), ports(), T0).driver;
    expect(byStaff.toState()).toMatchObject({ registeredBy: APPROVER });
    const again = byStaff.reissueActivationKey(keyPorts, APPROVER, soon);
    byStaff.activate(again, soon, hasher, PHONE);
    expect(codeOf(() => byStaff.approve(passedDriverChecklist, APPROVER, days(2)))).toBe('DRIVER_APPROVER_SET_CONTACT');
    expect(codeOf(() => Driver.register(driverInput({ registeredBy: 'nobody' }), ports(), T0))).toBe('INVALID_ID');
  });

  it('lets the approver act once someone else has set the current number, and names who corrected', () => {
    const { driver } = registered();
    driver.correct({ phone: '+233244000111' }, APPROVER, soon);
    driver.correct({ phone: '+233244000222' }, SECOND_APPROVER, soon);
    expect(driver.toState().phoneSetBy).toBe(SECOND_APPROVER);
    expect(driver.reissueActivationKey(keyPorts, APPROVER, soon)).toMatch(/^\d{6}$/);
    // A correction that changes nothing sets nobody; a corrector that is not an id is refused before any change.
    driver.correct({ phone: '+233244000222' }, APPROVER, soon);
    expect(driver.toState().phoneSetBy).toBe(SECOND_APPROVER);
    expect(codeOf(() => driver.correct({ phone: '+233244000333' }, 'someone', soon))).toBe('INVALID_ID');
    expect(driver.toState().phone).toBe('+233244000222');
  });
});

describe("A driver's owner", () => {
  it("must belong to the driver's assembly; a missing owner and another assembly's are refused alike", () => {
    const refusal = (owner: { assemblyId?: string } | undefined, assemblyId?: string) => {
      try {
        assertOwnerOfDriverAssembly(OWNER, owner, assemblyId);
        return undefined;
      } catch (error) {
        return { code: (error as DomainError).code, message: (error as DomainError).message };
      }
    };
    expect(refusal({ assemblyId: 'a1' }, 'a1')).toBeUndefined();
    expect(refusal({}, undefined)).toBeUndefined();
    const missing = refusal(undefined, 'a1');
    expect(missing?.code).toBe('OWNER_NOT_FOUND');
    expect(refusal({ assemblyId: 'a2' }, 'a1')).toEqual(missing);
    expect(refusal({ assemblyId: 'a1' }, undefined)).toEqual(refusal(undefined, undefined));
    expect(refusal({}, 'a1')).toEqual(missing);
  });
});

describe('the approval checklist', () => {
  it('names the checks that failed, in the checklist order, and none when all passed', () => {
    expect(failedApprovalItems(passedDriverChecklist)).toEqual([]);
    expect(failedApprovalItems({ ...passedDriverChecklist, criminalRecord: false, validLicense: false })).toEqual([
      'validLicense',
      'criminalRecord',
    ]);
  });
});

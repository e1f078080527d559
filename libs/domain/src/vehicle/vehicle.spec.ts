import { DomainError } from '../shared/domain-error';
import {
  allPassed,
  APPROVER,
  days,
  INSPECTOR,
  OWNER,
  ports,
  STATION,
  T0,
  UNION,
  vehicleInput,
} from '../testing/fixtures';
import { assertVehicleConsistent, INSPECTION_CLOCK_SKEW_MS, Vehicle } from './vehicle';
import { parseRecordedInspectionChecklist, unrecordedInspectionItems } from './inspection-checklist';

/** A checklist of an older version of the original's inspection (imported): two of today's items not on it. */
const olderChecklist = () => {
  const { fireExtinguisher: _f, emergencySignals: _e, ...rest } = allPassed();
  return rest;
};

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).code;
  }
  throw new Error('expected a DomainError');
};

const DAY_MS = 86_400_000;

const approvedVehicle = () => {
  const v = Vehicle.register(vehicleInput(), ports().ids, T0);
  v.inspect(allPassed(), INSPECTOR, days(1));
  v.approve(APPROVER, days(2));
  return v;
};

describe('Vehicle registration', () => {
  it('starts uninspected and unapproved with none of the inspection, approval or link fields', () => {
    const v = Vehicle.register({ ownerId: OWNER }, ports().ids, T0);
    const s = v.toState();
    expect(s).toMatchObject({
      ownerId: OWNER,
      inspected: false,
      approved: false,
      version: 0,
      createdAt: T0,
      updatedAt: T0,
    });
    for (const absent of [
      'inspectionChecklist',
      'approvedBy',
      'dateApproved',
      'inspectedBy',
      'dateInspected',
      'stationId',
      'transportUnionId',
      'driverId',
    ]) {
      expect(s).not.toHaveProperty(absent);
    }
    expect(v.pullEvents().map((e) => e.type)).toEqual(['VehicleRegistered']);
    expect(v.pullEvents()).toEqual([]);
  });

  it('normalises registration number, VIN and colour', () => {
    const s = Vehicle.register(
      vehicleInput({ registrationNumber: '  gr   1234-24 ', vin: '1hgcm82633a004352', color: '#ffd700' }),
      ports().ids,
      T0,
    ).toState();
    expect(s).toMatchObject({ registrationNumber: 'GR 1234-24', vin: '1HGCM82633A004352', color: '#FFD700' });
  });

  it('keeps every optional field it is given', () => {
    const s = Vehicle.register(
      vehicleInput({
        make: ' Toyota ',
        model: 'Corolla',
        makeYear: days(-3000),
        yearOfRegistration: days(-2900),
        capacity: 4,
        grossWeight: 1700,
        netWeight: 1300,
        type: 'taxi',
        fuelCapacity: 50,
        color: '#FFF',
      }),
      ports().ids,
      T0,
    ).toState();
    expect(s).toMatchObject({
      make: 'Toyota',
      model: 'Corolla',
      capacity: 4,
      grossWeight: 1700,
      netWeight: 1300,
      type: 'taxi',
      fuelCapacity: 50,
      color: '#FFF',
    });
    expect(s.makeYear).toEqual(days(-3000));
  });

  it.each([
    ['ownerId', { ownerId: 'not-an-id' }, 'INVALID_ID'],
    ['vin with I, O or Q', { vin: '1HGCM82633A00435O' }, 'INVALID_VIN'],
    ['vin of 16 characters', { vin: '1HGCM82633A00435' }, 'INVALID_VIN'],
    ['colour name', { color: 'red' }, 'INVALID_COLOR'],
    ['colour of 4 hex digits', { color: '#FFFF' }, 'INVALID_COLOR'],
    ['registration number with symbols', { registrationNumber: 'GR<1234>' }, 'INVALID_REGISTRATION_NUMBER'],
    ['capacity 0', { capacity: 0 }, 'INVALID_NUMBER'],
    ['fractional capacity', { capacity: 2.5 }, 'INVALID_NUMBER'],
    ['negative weight', { grossWeight: -1 }, 'INVALID_NUMBER'],
    ['infinite fuel capacity', { fuelCapacity: Infinity }, 'INVALID_NUMBER'],
    ['net above gross', { grossWeight: 1000, netWeight: 1200 }, 'INVALID_WEIGHTS'],
    ['unknown type', { type: 'spaceship' }, 'INVALID_VEHICLE_TYPE'],
    ['empty make', { make: '  ' }, 'INVALID_TEXT'],
    ['invalid date', { insuranceExpiryDate: new Date('nope') }, 'INVALID_DATE'],
    ['make year in the future', { makeYear: days(1) }, 'INVALID_DATES'],
    ['registration year in the future', { yearOfRegistration: days(1) }, 'INVALID_DATES'],
    ['make year after registration', { makeYear: days(-10), yearOfRegistration: days(-20) }, 'INVALID_DATES'],
  ])('refuses %s', (_name, over, code) => {
    expect(codeOf(() => Vehicle.register(vehicleInput(over as never), ports().ids, T0))).toBe(code);
  });

  it('refuses non-string text where text is expected', () => {
    expect(codeOf(() => Vehicle.register(vehicleInput({ registrationNumber: 42 as never }), ports().ids, T0))).toBe(
      'INVALID_REGISTRATION_NUMBER',
    );
    expect(codeOf(() => Vehicle.register(vehicleInput({ vin: 42 as never }), ports().ids, T0))).toBe('INVALID_VIN');
    expect(codeOf(() => Vehicle.register(vehicleInput({ color: 42 as never }), ports().ids, T0))).toBe('INVALID_COLOR');
  });
});

describe('Vehicle inspection', () => {
  it('records the checklist, inspector and date; a failed item is recorded, not refused', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    v.inspect({ ...allPassed(), brakes: false }, INSPECTOR, days(1));
    expect(v.toState()).toMatchObject({
      inspected: true,
      approved: false,
      inspectedBy: INSPECTOR,
      dateInspected: days(1),
      updatedAt: days(1),
    });
    expect(v.toState().inspectionChecklist?.brakes).toBe(false);
  });

  it.each([
    [
      'a missing item',
      (() => {
        const c: Record<string, boolean> = { ...allPassed() };
        delete c.brakes;
        return c;
      })(),
      /brakes/,
    ],
    ['an extra item', { ...allPassed(), wipers: true }, /unknown items: wipers/],
    ['a non-boolean item', { ...allPassed(), brakes: 'yes' }, /brakes/],
    ['an array', [true], /must be an object/],
    ['null', null, /must be an object/],
  ])('refuses a checklist with %s', (_name, checklist, message) => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    expect(() => v.inspect(checklist, INSPECTOR, days(1))).toThrow(message);
    expect(v.inspected).toBe(false);
  });

  it('records when an inspection was made and when it was received, and refuses a time too far ahead or too old', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    const received = days(2);
    const earliest = days(1);
    const tooFarAhead = new Date(received.getTime() + INSPECTION_CLOCK_SKEW_MS + 1);
    expect(() =>
      v.inspect(allPassed(), INSPECTOR, received, undefined, { at: tooFarAhead, earliest, maxAgeHours: 24 }),
    ).toThrow(expect.objectContaining({ code: 'INSPECTION_MADE_IN_FUTURE' }));
    expect(() =>
      v.inspect(allPassed(), INSPECTOR, received, undefined, { at: days(0.5), earliest, maxAgeHours: 24 }),
    ).toThrow(
      expect.objectContaining({ code: 'INSPECTION_MADE_TOO_LONG_AGO', message: expect.stringContaining('24 hours') }),
    );
    expect(v.inspected).toBe(false);
    v.inspect(allPassed(), INSPECTOR, received, undefined, { at: days(1.5), earliest, maxAgeHours: 24 });
    expect([v.toState().dateInspected, v.toState().inspectionReceivedAt]).toEqual([days(1.5), received]);
    v.inspect(allPassed(), INSPECTOR, days(3));
    expect([v.toState().dateInspected, v.toState().inspectionReceivedAt]).toEqual([days(3), days(3)]);
  });

  it('keeps where an inspection was made when sent, drops it with the next inspection, and refuses a non-place', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    const bounds = { earliest: days(0), maxAgeHours: 72 };
    v.inspect(allPassed(), INSPECTOR, days(1), undefined, {
      ...bounds,
      where: { type: 'Point', coordinates: [-1.62, 6.69] },
    });
    expect(v.toState().inspectionLocation).toEqual({ type: 'Point', coordinates: [-1.62, 6.69] });
    expect(v.toState().dateInspected).toEqual(days(1));
    expect(() =>
      v.inspect(allPassed(), INSPECTOR, days(2), undefined, {
        ...bounds,
        where: { type: 'Point', coordinates: [0, 91] },
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_LOCATION', field: 'madeWhere' }));
    v.inspect(allPassed(), INSPECTOR, days(2));
    expect(v.toState().inspectionLocation).toBeUndefined();
  });

  it('keeps a defect note on each failed item, and refuses a note on a passed or unknown item', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    const failing = { ...allPassed(), brakes: false, spareTire: false };
    v.inspect(failing, INSPECTOR, days(1), { brakes: '  Front pads worn through ', spareTire: 'Missing' });
    expect(v.toState().inspectionDefects).toEqual({ brakes: 'Front pads worn through', spareTire: 'Missing' });
    for (const [defects, message] of [
      [{ headlights: 'Cracked' }, /defects.headlights: a defect note is for a failed item/],
      [{ wipers: 'Worn' }, /defects.wipers names no inspection item/],
      [{ brakes: '' }, /defects.brakes must be text of 1 to 500 characters/],
      [{ brakes: 'x'.repeat(501) }, /defects.brakes must be text of 1 to 500/],
      [['brakes'], /defects must be an object/],
    ] as const) {
      expect(() => v.inspect(failing, INSPECTOR, days(2), defects)).toThrow(message);
    }
    // A refused inspection changes nothing; the next one, without notes, drops the last one's.
    expect(v.toState().dateInspected).toEqual(days(1));
    v.inspect(failing, INSPECTOR, days(3));
    expect(v.toState().inspectionDefects).toBeUndefined();
    v.inspect(failing, INSPECTOR, days(4), null);
    expect(v.toState().inspectionDefects).toBeUndefined();
  });

  it('replaces the previous inspection on re-inspection', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    v.inspect({ ...allPassed(), spareTire: false }, INSPECTOR, days(1));
    v.inspect(allPassed(), APPROVER, days(2));
    expect(v.toState()).toMatchObject({
      inspectedBy: APPROVER,
      dateInspected: days(2),
      inspectionChecklist: allPassed(),
    });
  });

  it('withdraws approval (and unlinks the driver) when an approved vehicle fails a re-inspection, as an event', () => {
    const v = approvedVehicle();
    v.linkDriver({ id: '65a0000000000000000000dd', approved: true, verified: true }, days(3));
    v.pullEvents();
    v.inspect({ ...allPassed(), headlights: false }, INSPECTOR, days(4));
    const s = v.toState();
    expect(s.approved).toBe(false);
    expect(s).not.toHaveProperty('approvedBy');
    expect(s).not.toHaveProperty('dateApproved');
    expect(s).not.toHaveProperty('driverId');
    const events = v.pullEvents();
    expect(events.map((e) => e.type)).toEqual(['VehicleInspected', 'VehicleApprovalWithdrawn']);
    expect(events[1].data).toEqual({
      failedItems: ['headlights'],
      outcome: 'failed',
      unlinkedDriver: '65a0000000000000000000dd',
    });
  });

  it('keeps the approval when an approved vehicle passes a re-inspection', () => {
    const v = approvedVehicle();
    v.inspect(allPassed(), INSPECTOR, days(5));
    expect(v.approved).toBe(true);
  });

  it('refuses an inspector id that is not an id', () => {
    expect(codeOf(() => Vehicle.register(vehicleInput(), ports().ids, T0).inspect(allPassed(), 'x', T0))).toBe(
      'INVALID_ID',
    );
  });
});

describe('Vehicle approval', () => {
  it('approves an inspected vehicle with every item passed and valid certificates', () => {
    const v = approvedVehicle();
    expect(v.toState()).toMatchObject({ approved: true, approvedBy: APPROVER, dateApproved: days(2) });
  });

  it('rejects approval of a vehicle that was never inspected', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    expect(codeOf(() => v.approve(APPROVER, days(1)))).toBe('VEHICLE_NOT_INSPECTED');
    expect(v.approved).toBe(false);
  });

  it('rejects approval after a failed inspection, naming the failed items', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    v.inspect({ ...allPassed(), spareTire: false, brakes: false }, INSPECTOR, days(1));
    expect(() => v.approve(APPROVER, days(2))).toThrow(/spareTire, brakes/);
  });

  it('refuses to approve an approved vehicle, as a conflict that changes nothing', () => {
    const v = approvedVehicle();
    const before = v.toState();
    let error: DomainError | undefined;
    try {
      v.approve(INSPECTOR, days(9));
    } catch (e) {
      error = e as DomainError;
    }
    expect(error).toMatchObject({ code: 'VEHICLE_ALREADY_APPROVED', kind: 'conflict' });
    expect(v.toState()).toEqual(before);
  });

  it("refuses approval by the vehicle's own inspector (separation of duties), changing nothing", () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    v.inspect(allPassed(), INSPECTOR, days(1));
    const before = v.toState();
    expect(codeOf(() => v.approve(INSPECTOR, days(2)))).toBe('VEHICLE_APPROVER_IS_INSPECTOR');
    expect(v.toState()).toEqual(before);
    v.approve(APPROVER, days(2));
    expect(v.toState()).toMatchObject({ approved: true, approvedBy: APPROVER, inspectedBy: INSPECTOR });
  });

  it.each([
    ['no registration number', { registrationNumber: undefined }, 'VEHICLE_REGISTRATION_NUMBER_MISSING'],
    ['no roadworthy date', { roadWorthyExpiryDate: undefined }, 'VEHICLE_ROADWORTHY_MISSING'],
    ['roadworthy ending at the approval instant', { roadWorthyExpiryDate: days(2) }, 'VEHICLE_ROADWORTHY_EXPIRED'],
    ['no insurance date', { insuranceExpiryDate: undefined }, 'VEHICLE_INSURANCE_MISSING'],
    ['expired insurance', { insuranceExpiryDate: days(1) }, 'VEHICLE_INSURANCE_EXPIRED'],
  ])('rejects approval with %s', (_name, over, code) => {
    const v = Vehicle.register(vehicleInput(over), ports().ids, T0);
    v.inspect(allPassed(), INSPECTOR, days(1));
    expect(codeOf(() => v.approve(APPROVER, days(2)))).toBe(code);
    expect(v.approved).toBe(false);
  });

  it('refuses an approver id that is not an id', () => {
    expect(codeOf(() => approvedVehicle().approve('nope', T0))).toBe('INVALID_ID');
  });
});

describe('Vehicle links', () => {
  const driver = { id: '65a0000000000000000000dd', approved: true, verified: true };

  it('links an approved vehicle to an approved, verified driver, replacing any previous one', () => {
    const v = approvedVehicle();
    v.linkDriver(driver, days(3));
    v.linkDriver({ ...driver, id: '65a0000000000000000000ee' }, days(4));
    expect(v.toState().driverId).toBe('65a0000000000000000000ee');
  });

  it('refuses a driver for an unapproved vehicle', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    expect(codeOf(() => v.linkDriver(driver, days(1)))).toBe('VEHICLE_NOT_APPROVED');
  });

  it.each([
    ['unapproved', { ...driver, approved: false }],
    ['unverified', { ...driver, verified: false }],
  ])('refuses an %s driver', (_name, d) => {
    expect(codeOf(() => approvedVehicle().linkDriver(d, days(3)))).toBe('DRIVER_NOT_ELIGIBLE');
  });

  it('unlinks a driver, and unlinking with none is a no-op', () => {
    const v = approvedVehicle();
    expect(v.unlinkDriver(days(3))).toBe(false);
    v.linkDriver(driver, days(3));
    expect(v.unlinkDriver(days(4))).toBe(true);
    expect(v.toState()).not.toHaveProperty('driverId');
  });

  it('links and unlinks a station (unlinked shows as null) and links a union', () => {
    const v = Vehicle.register(vehicleInput(), ports().ids, T0);
    v.linkStation(STATION, days(1));
    expect(v.toState().stationId).toBe(STATION);
    v.linkStation(null, days(2));
    expect(v.toState().stationId).toBeNull();
    v.linkTransportUnion(UNION, days(3));
    expect(v.toState()).toMatchObject({ transportUnionId: UNION, updatedAt: days(3) });
    expect(codeOf(() => v.linkStation('bad', days(4)))).toBe('INVALID_ID');
  });
});

describe('Vehicle compliance', () => {
  it('is empty for an approved vehicle with valid certificates', () => {
    expect(approvedVehicle().complianceAt(days(10))).toEqual([]);
  });

  it('lists every reason an unfit vehicle may not operate', () => {
    const v = Vehicle.register(
      vehicleInput({ roadWorthyExpiryDate: days(5), insuranceExpiryDate: days(6) }),
      ports().ids,
      T0,
    );
    v.inspect({ ...allPassed(), seatBelts: false }, INSPECTOR, days(1));
    expect(v.complianceAt(days(6))).toEqual([
      { code: 'NOT_APPROVED' },
      { code: 'ROADWORTHY_EXPIRED', since: days(5) },
      { code: 'INSURANCE_EXPIRED', since: days(6) },
      { code: 'CHECKLIST_FAILED', items: ['seatBelts'] },
    ]);
  });

  it('adds the certificates ending after now and before the horizon, and not those ending later', () => {
    const v = approvedVehicle(); // roadworthy ends at day 180, insurance at day 365
    expect(v.complianceOutlook(days(10), days(181))).toEqual([{ code: 'ROADWORTHY_EXPIRING', on: days(180) }]);
    expect(v.complianceOutlook(days(10), days(180))).toEqual([]);
    expect(v.complianceOutlook(days(200), days(366))).toEqual([
      { code: 'ROADWORTHY_EXPIRED', since: days(180) },
      { code: 'INSURANCE_EXPIRING', on: days(365) },
    ]);
    expect(
      Vehicle.register({ ownerId: OWNER }, ports().ids, T0)
        .complianceOutlook(T0, days(1))
        .map((r) => r.code),
    ).toEqual(['NOT_APPROVED', 'ROADWORTHY_MISSING', 'INSURANCE_MISSING']);
  });

  it('reports missing certificates', () => {
    const v = Vehicle.register({ ownerId: OWNER }, ports().ids, T0);
    expect(v.complianceAt(T0).map((r) => r.code)).toEqual(['NOT_APPROVED', 'ROADWORTHY_MISSING', 'INSURANCE_MISSING']);
  });

  it('restores from state with the same behaviour and exposes the revision', () => {
    const v = Vehicle.restore({ ...approvedVehicle().toState(), version: 7 });
    expect(v.version).toBe(7);
    expect(v.inspected).toBe(true);
    expect(typeof v.id).toBe('string');
  });
});

describe('Vehicle document renewals', () => {
  it('records documents a vehicle was registered without, after which it can be approved', () => {
    const v = Vehicle.register({ ownerId: OWNER, registrationNumber: 'GR 5-26' }, ports().ids, T0);
    v.inspect(allPassed(), INSPECTOR, days(1));
    expect(codeOf(() => v.approve(APPROVER, days(2)))).toBe('VEHICLE_ROADWORTHY_MISSING');
    v.renewRoadworthy(days(200), days(2));
    expect(codeOf(() => v.approve(APPROVER, days(2)))).toBe('VEHICLE_INSURANCE_MISSING');
    v.renewInsurance(days(300), days(2));
    v.approve(APPROVER, days(2));
    expect(v.toState()).toMatchObject({
      approved: true,
      roadWorthyExpiryDate: days(200),
      insuranceExpiryDate: days(300),
    });
    expect(v.complianceAt(days(3))).toEqual([]);
    expect(v.pullEvents().map((e) => [e.type, e.data?.previous])).toEqual(
      expect.arrayContaining([
        ['VehicleRoadworthyRenewed', undefined],
        ['VehicleInsuranceRenewed', undefined],
      ]),
    );
  });

  it('renews an expired certificate: the vehicle is compliant again and its outlook changes', () => {
    const v = approvedVehicle();
    const expired = new Date(v.toState().roadWorthyExpiryDate!.getTime() + DAY_MS);
    expect(v.complianceAt(expired).map((r) => r.code)).toContain('ROADWORTHY_EXPIRED');
    v.renewRoadworthy(new Date(expired.getTime() + 365 * DAY_MS), expired);
    expect(v.complianceAt(expired).map((r) => r.code)).not.toContain('ROADWORTHY_EXPIRED');
    const event = v.pullEvents().find((e) => e.type === 'VehicleRoadworthyRenewed');
    expect(event?.data).toEqual({
      expiry: new Date(expired.getTime() + 365 * DAY_MS),
      previous: new Date(expired.getTime() - DAY_MS),
    });
  });

  it('refuses an expiry that is not later than the current one, or not ahead, and changes nothing', () => {
    const v = approvedVehicle();
    const before = v.toState();
    v.pullEvents();
    expect(codeOf(() => v.renewInsurance(before.insuranceExpiryDate!, days(3)))).toBe('RENEWAL_NOT_LATER');
    expect(codeOf(() => v.renewRoadworthy(days(5), days(3)))).toBe('RENEWAL_NOT_LATER');
    expect(codeOf(() => v.renewRoadworthy(days(3), days(3)))).toBe('RENEWAL_EXPIRED');
    expect(codeOf(() => v.renewInsurance(new Date('nope'), days(3)))).toBe('INVALID_DATE');
    expect(v.toState()).toEqual(before);
    expect(v.pullEvents()).toEqual([]);
  });
});

describe('Vehicle corrections', () => {
  it('corrects fields as registration checks them, records which changed, and nothing when nothing changes', () => {
    const v = Vehicle.register({ ...vehicleInput(), makeYear: days(-2000) }, ports().ids, T0);
    v.pullEvents();
    const before = v.toState();
    // The same values, spelt differently (a date as another object, a colour in lower case): no change.
    expect(
      v.correct({ make: before.make, color: before.color?.toLowerCase(), makeYear: new Date(days(-2000)) }, days(1)),
    ).toEqual([]);
    expect(v.toState()).toEqual(before);
    expect(v.pullEvents()).toEqual([]);
    expect(v.correct({ make: 'Nissan', color: '#abcdef', makeYear: days(-1999) }, days(1))).toEqual([
      'color',
      'make',
      'makeYear',
    ]);
    expect(v.toState()).toMatchObject({ make: 'Nissan', color: '#ABCDEF', updatedAt: days(1) });
    expect(v.pullEvents()).toEqual([
      { type: 'VehicleCorrected', aggregateId: v.id, at: days(1), data: { fields: ['color', 'make', 'makeYear'] } },
    ]);
  });

  it('adds a value the registration left out, ignoring fields sent as undefined', () => {
    const v = Vehicle.register({ ownerId: OWNER }, ports().ids, T0);
    expect(v.correct({ makeYear: days(-1000), color: undefined }, days(1))).toEqual(['makeYear']);
    expect(v.toState()).toMatchObject({ makeYear: days(-1000) });
    expect(v.toState().color).toBeUndefined();
  });

  it('checks a correction together with the rest of the record', () => {
    const v = Vehicle.register({ ...vehicleInput(), grossWeight: 1500, netWeight: 1000 }, ports().ids, T0);
    expect(codeOf(() => v.correct({ netWeight: 1600 }, days(1)))).toBe('INVALID_WEIGHTS');
    expect(codeOf(() => v.correct({ make: '' }, days(1)))).toBe('INVALID_TEXT');
    expect(codeOf(() => v.correct({ makeYear: days(10) }, days(1)))).toBe('INVALID_DATES');
    expect(v.toState().netWeight).toBe(1000);
  });

  it('on an approved vehicle refuses a new VIN, and sends a new plate back for approval (unlinking the driver)', () => {
    const v = approvedVehicle();
    v.linkDriver({ id: OWNER, approved: true, verified: true }, days(3));
    v.pullEvents();
    expect(codeOf(() => v.correct({ vin: '2HGCM82633A004352' }, days(4)))).toBe('CORRECTION_NOT_ALLOWED');
    expect(v.correct({ color: '#000000' }, days(4))).toEqual(['color']);
    expect(v.approved).toBe(true);
    expect(v.correct({ registrationNumber: 'gw 77-26' }, days(5))).toEqual(['registrationNumber']);
    expect(v.toState()).toMatchObject({ approved: false, registrationNumber: 'GW 77-26', inspected: true });
    expect(v.toState().driverId).toBeUndefined();
    expect(v.pullEvents().map((e) => [e.type, e.data])).toEqual([
      ['VehicleCorrected', { fields: ['color'] }],
      ['VehicleCorrected', { fields: ['registrationNumber'] }],
      ['VehicleApprovalWithdrawn', { reason: 'registrationNumber corrected', unlinkedDriver: OWNER }],
    ]);
    // Not approved any more: the VIN may be corrected now, before the approver looks again.
    expect(v.correct({ vin: '2HGCM82633A004352' }, days(6))).toEqual(['vin']);
  });
});

describe('a checklist of an older version (imported history)', () => {
  it('is read with the items it lacks not recorded, refusing an extra or non-boolean item and an empty one', () => {
    const c = parseRecordedInspectionChecklist(olderChecklist());
    expect(c).toEqual(olderChecklist());
    expect(unrecordedInspectionItems(c)).toEqual(['fireExtinguisher', 'emergencySignals']);
    expect(unrecordedInspectionItems(allPassed())).toEqual([]);
    expect(parseRecordedInspectionChecklist(allPassed())).toEqual(allPassed());
    for (const raw of [{ ...olderChecklist(), wipers: true }, { ...olderChecklist(), brakes: 'yes' }, {}, null, []])
      expect(codeOf(() => parseRecordedInspectionChecklist(raw))).toBe('INVALID_CHECKLIST');
  });

  it('is never a pass: approval is refused, naming the items not recorded, until a new inspection', () => {
    const v = Vehicle.restore({
      ...Vehicle.register(vehicleInput(), ports().ids, T0).toState(),
      inspected: true,
      inspectionChecklist: olderChecklist(),
      inspectedBy: INSPECTOR,
      dateInspected: days(1),
    });
    const refused = (() => {
      try {
        v.approve(APPROVER, days(2));
      } catch (error) {
        return error as DomainError;
      }
    })();
    expect(refused).toMatchObject({ code: 'VEHICLE_INSPECTION_INCOMPLETE' });
    expect(refused?.message).toContain('fireExtinguisher, emergencySignals');
    expect(v.approved).toBe(false);
    v.inspect(allPassed(), INSPECTOR, days(3));
    v.approve(APPROVER, days(4));
    expect(v.approved).toBe(true);
  });

  it('keeps an approval the original gave: a stored approved vehicle whose checklist lacks items holds', () => {
    expect(() =>
      assertVehicleConsistent({ inspected: true, approved: true, inspectionChecklist: olderChecklist() }),
    ).not.toThrow();
  });
});

describe('what every stored vehicle holds, however it got there', () => {
  const stored = (over: Partial<Parameters<typeof assertVehicleConsistent>[0]> = {}) => ({
    inspected: true,
    approved: true,
    inspectionChecklist: allPassed(),
    driverId: OWNER,
    ...over,
  });

  it('holds for a fresh, an inspected, an approved and a linked vehicle', () => {
    for (const state of [
      stored({ inspected: false, approved: false, inspectionChecklist: undefined, driverId: undefined }),
      stored({ approved: false, inspectionChecklist: { ...allPassed(), brakes: false }, driverId: undefined }),
      stored({ driverId: undefined }),
      stored(),
    ])
      expect(() => assertVehicleConsistent(state)).not.toThrow();
  });

  it('refuses an approved vehicle never inspected, or whose inspection failed, and a driver on an unapproved one', () => {
    expect(codeOf(() => assertVehicleConsistent(stored({ inspected: false })))).toBe('VEHICLE_NOT_INSPECTED');
    expect(
      codeOf(() => assertVehicleConsistent(stored({ inspectionChecklist: { ...allPassed(), brakes: false } }))),
    ).toBe('VEHICLE_INSPECTION_FAILED');
    expect(codeOf(() => assertVehicleConsistent(stored({ approved: false })))).toBe('VEHICLE_NOT_APPROVED');
  });
});

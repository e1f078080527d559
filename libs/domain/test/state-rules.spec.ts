import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DomainError,
  Driver,
  DriverErrors,
  assertNoOverdueNotices,
  Notice,
  NoticeErrors,
  OffenceCatalogue,
  geoPoint,
  parseCallbackPayload,
  Transaction,
  Trip,
  TripErrors,
  Vehicle,
  VehicleErrors,
  type ApplyOutcome,
  type TripRequest,
} from '../src';
import {
  allPassed,
  APPROVER,
  days,
  driverInput,
  INSPECTOR,
  passedDriverChecklist,
  ports,
  T0,
  vehicleInput,
} from '../src/testing';

// The README's state rules table, checked against the code: each row names an aggregate, a state, an action and the
// code it is refused with; a scenario below builds that state and tries that action, and the code must be exactly the
// one the row names. A row without a scenario, a scenario without a row, and a state-rule code no row names all fail.
const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const section = /^## State rules\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
const rows = section
  .split('\n')
  .filter((line) => /^\|\s*(Vehicle|Driver|Trip|Transaction|Notice)\s*\|/.test(line))
  .map((line) => {
    const [aggregate, state, action, who, precondition, refused] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/`/g, ''));
    return { aggregate, state, action, who, precondition, refused, key: `${aggregate} | ${state} | ${action}` };
  });

// --- the states -------------------------------------------------------------------------------------------------
const vehicle = (over = {}) => Vehicle.register(vehicleInput(over), ports().ids, T0);
const inspected = (over = {}, checklist = allPassed(), by = INSPECTOR) => {
  const v = vehicle(over);
  v.inspect(checklist, by, T0);
  return v;
};
const approvedVehicle = () => {
  const v = inspected();
  v.approve(APPROVER, T0);
  return v;
};
const registered = (over = {}) => Driver.register(driverInput(over), ports(), T0);
const activated = () => {
  const { driver, activationKey } = registered();
  driver.activate(activationKey, T0, ports().hasher, 'phone');
  return driver;
};
const approvedDriver = (active = true) => {
  const driver = active ? activated() : registered().driver;
  driver.approve(passedDriverChecklist, APPROVER, T0);
  return driver;
};
const onlineDriver = () => {
  const driver = approvedDriver();
  driver.goOnline(T0);
  return driver;
};

const DRIVER = { id: '65a0000000000000000000d1', name: 'Kojo', phone: '+233244555666', email: 'k@example.com' };
const tripRequest = (over: Partial<TripRequest> = {}): TripRequest => ({
  ticketNumber: 'TKT-1',
  serviceID: 'SRV-1',
  serviceType: 'taxi',
  driver: { ...DRIVER, approved: true, verified: true },
  vehicle: {
    id: '65a0000000000000000000e1',
    registrationNumber: 'GR 1-24',
    capacity: 4,
    approved: true,
    driverId: DRIVER.id,
  },
  pricing: { id: '65a0000000000000000000c1', type: 'standard', pricePerKm: 2_500_000, pricePerMinute: 300_000 },
  passengers: 2,
  user: 'passenger-1',
  pickupLocation: geoPoint(-0.2166, 5.556),
  serviceDestination: geoPoint(-0.2052, 5.5701),
  estimatedDistance: 8,
  estimatedMinutes: 20,
  ...over,
});
const started = () => Trip.create(tripRequest(), ports().ids, T0);
const ended = () => {
  const t = started();
  t.end({ finalDistance: 10, durationMinutes: 25 }, days(1));
  return t;
};
const settled = () => {
  const t = ended();
  t.settle(t.amountDue!, 'momo', days(1));
  return t;
};
const checkedOut = () => {
  const t = ended();
  t.checkOut(geoPoint(-0.2052, 5.5701), days(1));
  return t;
};

const payment = () => {
  const ids = ports().ids;
  const tx = Transaction.intend(
    {
      merchantId: '65a0000000000000000000f1',
      amount: 25_500_000,
      description: 'Trip payment',
      reference: 'TRIP-0001',
      callBackUrl: 'https://merchant.example.com/cb',
      customerPhone: '0244987654',
      requestType: 'mobile_money',
    },
    ids,
    T0,
  );
  tx.applyRequestAnswer({ ResponseCode: '0001', Message: 'pending', Data: { ClientReference: tx.id } }, T0);
  return tx;
};
const paid = (tx: Transaction, reference = tx.id, amount = 25.5) =>
  parseCallbackPayload({
    ResponseCode: '0000',
    Message: 'success',
    Data: { ClientReference: reference, Amount: amount },
  });

const catalogue = OffenceCatalogue.publish(
  '65a0000000000000000000a1',
  [
    {
      code: 'TF-01',
      description: 'No sticker',
      bylaw: 's. 12',
      fine: 20_000,
      daysToPay: 14,
      surcharge: 5_000,
      daysToContest: 10,
    },
    {
      code: 'TF-02',
      description: 'Loading outside a station',
      bylaw: 's. 15',
      fine: 10_000,
      daysToPay: 7,
      surcharge: 0,
    },
  ],
  undefined,
  APPROVER,
  T0,
);
const notice = (codes = ['TF-01']) =>
  Notice.issue(
    { catalogue, codes, vehicleId: '65a0000000000000000000b1', officerId: INSPECTOR, madeAt: T0 },
    ports().ids,
    T0,
  );
const paidNotice = () => {
  const n = notice();
  n.recordPayment(20_000, days(1));
  return n;
};
const contestedNotice = () => {
  const n = notice();
  n.contest('The sticker was renewed', days(1));
  return n;
};
const cancelledNotice = () => {
  const n = notice();
  n.cancel(APPROVER, 'Wrong plate', days(1));
  return n;
};

// --- one scenario per row: the action tried in the row's state ---------------------------------------------------
const scenarios: Record<string, () => unknown> = {
  'Vehicle | approved | approve': () => approvedVehicle().approve(APPROVER, days(1)),
  'Vehicle | registered, never inspected | approve': () => vehicle().approve(APPROVER, T0),
  'Vehicle | inspected by this approver | approve': () => inspected({}, allPassed(), APPROVER).approve(APPROVER, T0),
  'Vehicle | inspected, an item failed | approve': () =>
    inspected({}, { ...allPassed(), brakes: false }).approve(APPROVER, T0),
  'Vehicle | inspected, no registration number | approve': () =>
    inspected({ registrationNumber: undefined }).approve(APPROVER, T0),
  'Vehicle | inspected, no roadworthy date | approve': () =>
    inspected({ roadWorthyExpiryDate: undefined }).approve(APPROVER, T0),
  'Vehicle | inspected, roadworthy expired | approve': () => inspected().approve(APPROVER, days(200)),
  'Vehicle | inspected, no insurance date | approve': () =>
    inspected({ insuranceExpiryDate: undefined }).approve(APPROVER, T0),
  'Vehicle | inspected, insurance expired | approve': () =>
    inspected({ roadWorthyExpiryDate: days(1000) }).approve(APPROVER, days(400)),
  'Vehicle | not approved | linkDriver': () =>
    inspected().linkDriver({ id: DRIVER.id, approved: true, verified: true }, T0),
  'Vehicle | approved | linkDriver': () =>
    approvedVehicle().linkDriver({ id: DRIVER.id, approved: true, verified: false }, T0),
  'Vehicle | approved | correct (VIN)': () => approvedVehicle().correct({ vin: '1HGCM82633A004352' }, days(1)),
  'Driver | activated | activate': () => activated().activate('000000', T0, ports().hasher, 'phone'),
  'Driver | a wrong key tried from this address | activate': () => {
    const { driver, activationKey } = registered();
    driver.activate(activationKey === '000000' ? '111111' : '000000', T0, ports().hasher, 'phone');
    driver.activate(activationKey, T0, ports().hasher, 'phone');
  },
  'Driver | key older than its lifetime | activate': () => {
    const { driver, activationKey } = registered();
    driver.activate(activationKey, days(2), ports().hasher, 'phone');
  },
  'Vehicle | inspected on an older checklist | approve': () => {
    const { fireExtinguisher: _f, ...older } = allPassed();
    const v = Vehicle.restore({
      ...vehicle().toState(),
      inspected: true,
      inspectionChecklist: older,
      inspectedBy: INSPECTOR,
      dateInspected: T0,
    });
    v.approve(APPROVER, days(1));
  },
  'Vehicle | inspection made ahead of the clock | inspect': () =>
    vehicle().inspect(allPassed(), INSPECTOR, T0, undefined, { at: days(1), earliest: days(-3), maxAgeHours: 72 }),
  'Vehicle | inspected, a dangerous defect | approve': () => {
    const v = vehicle();
    v.inspect({ ...allPassed(), brakes: false }, INSPECTOR, T0, undefined, undefined, {
      grades: { brakes: 'dangerous' },
    });
    v.approve(APPROVER, T0);
  },
  'Vehicle | passed, or prohibited, no appeal | reinspect': () => inspected().reinspect({}, INSPECTOR, T0),
  'Vehicle | failed, window ended | reinspect': () =>
    inspected({}, { ...allPassed(), brakes: false }).reinspect({ brakes: true }, INSPECTOR, days(15)),
  'Vehicle | sent back by an appeal | reinspect': () => {
    const v = vehicle();
    v.inspect({ ...allPassed(), brakes: false }, INSPECTOR, T0, undefined, undefined, {
      inspectionId: '65a0000000000000000000f1',
    });
    v.orderReinspection('65a0000000000000000000f1', INSPECTOR, T0);
    v.reinspect({ brakes: true }, INSPECTOR, T0);
  },
  'Vehicle | inspected again since | orderReinspection': () =>
    inspected().orderReinspection('65a0000000000000000000f1', INSPECTOR, T0),
  'Vehicle | inspection made before the bound | inspect': () =>
    vehicle().inspect(allPassed(), INSPECTOR, T0, undefined, { at: days(-4), earliest: days(-3), maxAgeHours: 72 }),
  'Driver | activated | reissueActivationKey': () => activated().reissueActivationKey(ports(), APPROVER, T0),
  'Driver | phone corrected by this approver | reissueActivationKey': () => {
    const { driver } = registered();
    driver.correct({ phone: '0207555444' }, APPROVER, T0);
    return driver.reissueActivationKey(ports(), APPROVER, T0);
  },
  'Driver | contact set by this approver | approve': () => {
    const driver = activated();
    driver.correct({ email: 'corrected@example.com' }, APPROVER, T0);
    return driver.approve(passedDriverChecklist, APPROVER, T0);
  },
  'Driver | approved | approve': () => approvedDriver().approve(passedDriverChecklist, APPROVER, T0),
  'Driver | registered | approve': () =>
    registered().driver.approve({ ...passedDriverChecklist, validLicense: false }, APPROVER, T0),
  'Driver | licence expired | approve': () => activated().approve(passedDriverChecklist, APPROVER, days(401)),
  'Driver | approved | correct (ID)': () => approvedDriver().correct({ idNumber: 'GHA-700000009-9' }, APPROVER, T0),
  'Driver | not approved | revokeApproval': () => activated().revokeApproval('licence withdrawn', APPROVER, T0),
  'Driver | not approved | goOnline': () => activated().goOnline(T0),
  'Driver | approved, not activated | goOnline': () => approvedDriver(false).goOnline(T0),
  'Driver | online and busy | goOffline': () => {
    const driver = onlineDriver();
    driver.setBusy(true, T0);
    driver.goOffline(T0);
  },
  'Driver | offline | setBusy': () => approvedDriver().setBusy(true, T0),
  'Trip | (new) | create': () => undefined, // four rows: see createScenarios
  'Notice | (new) | issue': () => notice(['TF-09']),
  'Notice | paid | assertPayable': () => paidNotice().assertPayable(),
  'Notice | cancelled | assertPayable': () => cancelledNotice().assertPayable(),
  'Notice | contested | assertPayable': () => contestedNotice().assertPayable(),
  'Notice | issued, before its due time | markOverdue': () => notice().markOverdue(days(3)),
  'Notice | issued, no offence contestable | contest': () => notice(['TF-02']).contest('Not me', days(1)),
  'Notice | issued, past its days to contest | contest': () => notice().contest('Not me', days(11)),
  'Notice | contested | contest': () => contestedNotice().contest('Again', days(2)),
  'Notice | issued | decide': () => notice().decide({ outcome: 'upheld', by: APPROVER, reason: 'Seen' }, days(2)),
  'Notice | contested | decide': () =>
    contestedNotice().decide({ outcome: 'upheld', by: INSPECTOR, reason: 'Seen' }, days(2)),
  'Notice | issued | cancel': () => notice().cancel(INSPECTOR, 'Mine', days(1)),
  'Notice | paid | cancel': () => paidNotice().cancel(APPROVER, 'Late', days(2)),
  'Notice | cancelled | cancel': () => cancelledNotice().cancel(APPROVER, 'Again', days(2)),
  'Notice | issued, past its due time | assertNoOverdueNotices': () =>
    assertNoOverdueNotices(true, [notice()], days(30)),
  'Trip | ended | end': () => ended().end({ finalDistance: 10, durationMinutes: 25 }, days(2)),
  'Trip | started | end': () =>
    started().end({ finalDistance: 10, durationMinutes: 25, discount: 1_000_000_000 }, days(1)),
  'Trip | started | checkOut': () => started().checkOut(geoPoint(-0.2052, 5.5701), days(1)),
  'Trip | checked out | checkOut': () => checkedOut().checkOut(geoPoint(-0.2052, 5.5701), days(1)),
  'Trip | started | settle': () => started().settle(100, 'momo', days(1)),
  'Trip | ended | settle': () => ended().settle(1, 'momo', days(1)),
  'Trip | settled | settle': () => settled().settle(settled().amountDue!, 'momo', days(1)),
  'Trip | ended | refund': () => ended().refund(100, days(1)),
  'Trip | settled | refund': () => {
    const t = settled();
    t.refund(t.amountDue! + 1, days(2));
  },
  'Transaction | pending | applyCallback': () => undefined, // two rows: see outcomeScenarios
  'Transaction | success | applyStatusCheck': () => {
    const tx = payment();
    tx.applyCallback(paid(tx), days(1), true);
    return tx.applyStatusCheck({ state: 'failed', raw: {} }, days(2));
  },
};
// Rows that share aggregate, state and action: told apart by the code they name.
const createScenarios: Record<string, () => unknown> = {
  TRIP_VEHICLE_NOT_APPROVED: () =>
    Trip.create(tripRequest({ vehicle: { ...tripRequest().vehicle, approved: false } }), ports().ids, T0),
  TRIP_DRIVER_NOT_APPROVED: () =>
    Trip.create(tripRequest({ driver: { ...DRIVER, approved: true, verified: false } }), ports().ids, T0),
  TRIP_DRIVER_NOT_LINKED: () =>
    Trip.create(tripRequest({ vehicle: { ...tripRequest().vehicle, driverId: undefined } }), ports().ids, T0),
  TRIP_TOO_MANY_PASSENGERS: () => Trip.create(tripRequest({ passengers: 5 }), ports().ids, T0),
};
const outcomeScenarios: Record<string, () => unknown> = {
  'anomaly: reference_mismatch': () => {
    const tx = payment();
    return tx.applyCallback(paid(tx, 'TRIP-0001'), days(1), true);
  },
  'anomaly: amount_mismatch': () => {
    const tx = payment();
    return tx.applyCallback(paid(tx, tx.id, 1), days(1), true);
  },
};

/** What the action did: the code of the DomainError it threw, or the anomaly it reported. */
function refusal(action: () => unknown): string {
  try {
    const outcome = action() as ApplyOutcome | undefined;
    if (outcome && typeof outcome === 'object' && 'result' in outcome && outcome.result === 'anomaly')
      return `anomaly: ${outcome.reason}`;
    return `not refused (${JSON.stringify(outcome)})`;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

function scenarioOf(row: (typeof rows)[number]): () => unknown {
  if (row.key === 'Trip | (new) | create') return createScenarios[row.refused];
  if (row.key === 'Transaction | pending | applyCallback') return outcomeScenarios[row.refused];
  return scenarios[row.key];
}

describe('the README state rules table', () => {
  it('has a row for each rule, each row once', () => {
    expect(rows.length).toBeGreaterThanOrEqual(35);
    const ids = rows.map((r) => `${r.key} | ${r.refused}`);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of rows) expect(row.who).not.toBe('');
  });

  it.each(rows.map((row) => [`${row.key}: ${row.refused}`, row]))('%s', (_, row) => {
    const scenario = scenarioOf(row);
    expect(scenario).toBeDefined();
    expect(refusal(scenario)).toBe(row.refused);
  });

  it('has a scenario for no rule the table lacks', () => {
    const keys = new Set(rows.map((r) => r.key));
    expect(Object.keys(scenarios).filter((key) => !keys.has(key))).toEqual([]);
    const created = rows.filter((r) => r.key === 'Trip | (new) | create').map((r) => r.refused);
    expect(created.sort()).toEqual(Object.keys(createScenarios).sort());
  });

  it("names every state-rule code of the vehicle's, driver's, trip's and notice's errors", () => {
    // Each factory with what it takes: a list of items, or dates (wrongActivationKey), or a number.
    const make = (factory: unknown): DomainError => {
      const f = factory as (...a: unknown[]) => DomainError;
      return f.length === 2 ? f(T0, T0) : f([]);
    };
    // The notice's take a code, a date or an amount: a date serves for each.
    const notices = Object.values(NoticeErrors).map((f) => (f as (...a: unknown[]) => DomainError)(T0, 1));
    const codes = [VehicleErrors, DriverErrors, TripErrors]
      .flatMap((errors) => Object.values(errors).map(make))
      .concat(notices)
      .filter((error) => error.kind !== 'validation' && error.code !== 'OWNER_NOT_FOUND')
      .map((error) => error.code)
      // Refused through the outcome of activate (it counts the try), not thrown: see the Driver example.
      .filter((code) => code !== 'DRIVER_ACTIVATION_KEY_INVALID');
    const named = new Set(rows.map((r) => r.refused));
    expect([...new Set(codes)].filter((code) => !named.has(code))).toEqual([]);
  });

  it('fails a row whose action is not refused, or refused with another code', () => {
    expect(refusal(() => vehicle())).toMatch(/^not refused/);
    expect(refusal(() => vehicle().approve(APPROVER, T0))).not.toBe('VEHICLE_ALREADY_APPROVED');
    expect(() => refusal(() => JSON.parse('{'))).toThrow(SyntaxError);
  });
});

import { DomainError } from '../shared/domain-error';
import { allPassed, APPROVER, days, INSPECTOR, ports, T0, vehicleInput } from '../testing/fixtures';
import {
  blockingInspectionItems,
  DEFAULT_APPEAL_DAYS,
  inspectionSettingsOf,
  DEFAULT_DAYS_TO_FIX,
  gradedOutcome,
  gradeOf,
  parseInspectionAdvisories,
  parseInspectionGrades,
  parseSettingDays,
  reinspectionChecklist,
  windowEnd,
} from './inspection-grades';
import { decideAppeal, lodgeAppeal, type InspectionRecord } from './inspection-record';
import { assertVehicleConsistent, Vehicle } from './vehicle';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return `${(error as DomainError).code} ${(error as DomainError).field ?? ''}`.trim();
  }
  throw new Error('expected a DomainError');
};

const OTHER_INSPECTOR = '65a0000000000000000000e1';
const CLERK = '65a0000000000000000000e2';
const failing = (...items: string[]) => ({
  ...allPassed(),
  ...Object.fromEntries(items.map((i) => [i, false])),
});
const fresh = () => Vehicle.register(vehicleInput(), ports().ids, T0);

describe('defect grades', () => {
  it('grade every failed item major when none are given (a client that predates grades), and read a missing grade as major', () => {
    const checklist = failing('brakes', 'spareTire');
    expect(parseInspectionGrades(undefined, checklist)).toEqual({ spareTire: 'major', brakes: 'major' });
    expect(parseInspectionGrades(null, checklist)).toEqual({ spareTire: 'major', brakes: 'major' });
    expect(parseInspectionGrades({ brakes: 'dangerous' }, checklist)).toEqual({
      spareTire: 'major',
      brakes: 'dangerous',
    });
    expect(gradeOf(undefined, 'brakes')).toBe('major');
    expect(gradeOf({ brakes: 'minor' }, 'brakes')).toBe('minor');
  });

  it('refuse a grade on a passed or unknown item, an unknown grade, and grades that are not an object', () => {
    const checklist = failing('brakes');
    expect(codeOf(() => parseInspectionGrades({ headlights: 'minor' }, checklist))).toBe(
      'INVALID_VALUE grades.headlights',
    );
    expect(codeOf(() => parseInspectionGrades({ wipers: 'minor' }, checklist))).toBe('INVALID_VALUE grades.wipers');
    expect(codeOf(() => parseInspectionGrades({ brakes: 'severe' }, checklist))).toBe('INVALID_VALUE grades.brakes');
    expect(codeOf(() => parseInspectionGrades(['major'], checklist))).toBe('INVALID_VALUE grades');
    expect(codeOf(() => parseInspectionGrades('major', checklist))).toBe('INVALID_VALUE grades');
  });

  it('decide the outcome by the worst grade', () => {
    expect(gradedOutcome(allPassed(), {})).toBe('passed');
    expect(gradedOutcome(failing('spareTire'), { spareTire: 'minor' })).toBe('passedWithAdvice');
    expect(gradedOutcome(failing('spareTire', 'brakes'), { spareTire: 'minor', brakes: 'major' })).toBe('failed');
    expect(gradedOutcome(failing('spareTire', 'brakes'), { spareTire: 'minor' })).toBe('failed');
    expect(gradedOutcome(failing('spareTire', 'brakes'), { spareTire: 'major', brakes: 'dangerous' })).toBe(
      'prohibited',
    );
    const { fireExtinguisher: _f, ...older } = allPassed();
    expect(gradedOutcome(older, undefined)).toBe('incomplete');
    expect(gradedOutcome({ ...older, brakes: false }, undefined)).toBe('failed');
    expect(blockingInspectionItems(failing('spareTire', 'brakes'), { spareTire: 'minor' })).toEqual(['brakes']);
  });

  it('take advice on passed items only, as plain text', () => {
    const checklist = failing('brakes');
    expect(parseInspectionAdvisories(undefined, checklist)).toEqual({});
    expect(parseInspectionAdvisories(null, checklist)).toEqual({});
    expect(parseInspectionAdvisories({ headlights: ' Lens  cloudy ' }, checklist)).toEqual({
      headlights: 'Lens cloudy',
    });
    expect(codeOf(() => parseInspectionAdvisories({ brakes: 'Worn' }, checklist))).toBe(
      'INVALID_VALUE advisories.brakes',
    );
    expect(codeOf(() => parseInspectionAdvisories({ wipers: 'Worn' }, checklist))).toBe(
      'INVALID_VALUE advisories.wipers',
    );
    expect(codeOf(() => parseInspectionAdvisories('Worn', checklist))).toBe('INVALID_VALUE advisories');
    expect(codeOf(() => parseInspectionAdvisories({ headlights: '' }, checklist))).toBe(
      'INVALID_TEXT advisories.headlights',
    );
  });

  it('take assembly settings as whole days from 1 to 90', () => {
    expect(parseSettingDays(14, 'daysToFix')).toBe(14);
    for (const bad of [0, 91, 1.5, '14', null]) {
      expect(codeOf(() => parseSettingDays(bad, 'daysToFix'))).toBe('INVALID_NUMBER daysToFix');
    }
    expect(windowEnd(T0, 2)).toEqual(days(2));
    expect([DEFAULT_DAYS_TO_FIX, DEFAULT_APPEAL_DAYS]).toEqual([14, 15]);
    expect(inspectionSettingsOf({})).toEqual({ daysToFix: 14, appealDays: 15, photosRequired: true });
    expect(inspectionSettingsOf({ photosRequired: false, daysToFix: null }).photosRequired).toBe(false);
  });

  it('merge a re-inspection of exactly the failed items into the inspection it follows', () => {
    const previous = failing('brakes', 'spareTire');
    expect(reinspectionChecklist(previous, { brakes: true, spareTire: false })).toEqual({
      ...previous,
      brakes: true,
    });
    expect(codeOf(() => reinspectionChecklist(previous, { brakes: true }))).toBe(
      'INVALID_CHECKLIST inspectionChecklist',
    );
    expect(codeOf(() => reinspectionChecklist(previous, { brakes: true, spareTire: true, headlights: true }))).toBe(
      'INVALID_CHECKLIST inspectionChecklist',
    );
    expect(codeOf(() => reinspectionChecklist(previous, null))).toBe('INVALID_CHECKLIST inspectionChecklist');
    expect(codeOf(() => reinspectionChecklist(previous, [true]))).toBe('INVALID_CHECKLIST inspectionChecklist');
  });
});

describe('graded inspections of a vehicle', () => {
  it('record grades and advice with the inspection, and drop them with the next', () => {
    const v = fresh();
    v.inspect(failing('brakes'), INSPECTOR, days(1), undefined, undefined, {
      grades: { brakes: 'minor' },
      advisories: { headlights: 'Lens cloudy' },
    });
    expect(v.toState()).toMatchObject({
      inspectionGrades: { brakes: 'minor' },
      inspectionAdvisories: { headlights: 'Lens cloudy' },
    });
    expect(v.toState().reinspectionDueBy).toBeUndefined();
    expect(v.recordedInspection()).toBeUndefined(); // no history id given: no record
    v.inspect(allPassed(), INSPECTOR, days(2));
    expect(v.toState().inspectionGrades).toBeUndefined();
    expect(v.toState().inspectionAdvisories).toBeUndefined();
  });

  it('approve a vehicle with minor defects only, and keep an approval a minor defect finds', () => {
    const v = fresh();
    v.inspect(failing('spareTire'), INSPECTOR, days(1), undefined, undefined, { grades: { spareTire: 'minor' } });
    v.approve(APPROVER, days(2));
    expect(v.approved).toBe(true);
    expect(v.complianceAt(days(3))).toEqual([]);
    v.pullEvents();
    v.inspect(failing('headlights'), INSPECTOR, days(3), undefined, undefined, { grades: { headlights: 'minor' } });
    expect(v.approved).toBe(true);
    expect(v.pullEvents().map((e) => e.type)).toEqual(['VehicleInspected']);
    expect(() => assertVehicleConsistent(v.toState())).not.toThrow();
  });

  it('prohibit use on a dangerous defect: not approvable, and an approved vehicle loses its approval at once', () => {
    const v = fresh();
    v.inspect(allPassed(), INSPECTOR, days(1));
    v.approve(APPROVER, days(2));
    v.pullEvents();
    v.inspect(failing('brakes', 'spareTire'), INSPECTOR, days(3), undefined, undefined, {
      grades: { brakes: 'dangerous', spareTire: 'minor' },
    });
    expect(v.approved).toBe(false);
    const events = v.pullEvents();
    expect(events.map((e) => e.type)).toEqual(['VehicleInspected', 'VehicleApprovalWithdrawn']);
    expect(events[0].data).toMatchObject({ outcome: 'prohibited' });
    expect(events[1].data).toMatchObject({ outcome: 'prohibited', failedItems: ['brakes'] });
    expect(v.toState().reinspectionDueBy).toBeUndefined(); // no free re-inspection of a dangerous defect
    expect(codeOf(() => v.approve(APPROVER, days(4)))).toBe('VEHICLE_USE_PROHIBITED');
    expect(v.complianceAt(days(4))).toContainEqual({ code: 'CHECKLIST_FAILED', items: ['brakes'] });
    expect(() => assertVehicleConsistent({ ...v.toState(), approved: true })).toThrow('brakes');
  });

  it('fail majors with days to fix (the assembly setting, else 14), keeping the history record', () => {
    const v = fresh();
    v.inspect(failing('brakes'), INSPECTOR, days(1), { brakes: 'Pads worn' }, undefined, {
      inspectionId: '65a0000000000000000000f1',
      idempotencyKey: 'key-1',
    });
    expect(v.toState().reinspectionDueBy).toEqual(days(1 + DEFAULT_DAYS_TO_FIX));
    expect(v.recordedInspection()).toEqual({
      id: '65a0000000000000000000f1',
      vehicleId: v.id,
      kind: 'inspection',
      checklist: failing('brakes'),
      grades: { brakes: 'major' },
      defects: { brakes: 'Pads worn' },
      advisories: {},
      outcome: 'failed',
      inspectorId: INSPECTOR,
      madeAt: days(1),
      receivedAt: days(1),
      reinspectionDueBy: days(15),
      idempotencyKey: 'key-1',
    });
    v.inspect(failing('brakes'), INSPECTOR, days(2), undefined, undefined, { daysToFix: 3 });
    expect(v.toState().reinspectionDueBy).toEqual(days(5));
    expect(codeOf(() => v.approve(APPROVER, days(3)))).toBe('VEHICLE_INSPECTION_FAILED');
  });
});

describe('re-inspection', () => {
  const failedVehicle = () => {
    const v = fresh();
    v.inspect(failing('brakes', 'spareTire'), INSPECTOR, days(1), undefined, undefined, {
      grades: { spareTire: 'minor' },
      inspectionId: '65a0000000000000000000f1',
    });
    return v;
  };

  it('looks only at the failed items within the window, is linked to the inspection, and opens no new window', () => {
    const v = failedVehicle();
    v.pullEvents();
    v.reinspect({ brakes: true, spareTire: false }, OTHER_INSPECTOR, days(10), undefined, undefined, {
      grades: { spareTire: 'minor' },
      inspectionId: '65a0000000000000000000f2',
    });
    expect(v.toState().inspectionChecklist).toEqual(failing('spareTire'));
    expect(v.toState().reinspectionDueBy).toBeUndefined();
    expect(v.recordedInspection()).toMatchObject({
      kind: 'reinspection',
      reinspectionOf: '65a0000000000000000000f1',
      outcome: 'passedWithAdvice',
    });
    expect(v.pullEvents()[0]).toMatchObject({
      type: 'VehicleReinspected',
      data: { reinspectionOf: '65a0000000000000000000f1' },
    });
    v.approve(APPROVER, days(11));
    expect(v.approved).toBe(true);
  });

  it('is refused after the window (a full inspection is due), with no failed inspection, or on other items', () => {
    const v = failedVehicle();
    expect(codeOf(() => v.reinspect({ brakes: true, spareTire: true }, INSPECTOR, days(16)))).toBe(
      'REINSPECTION_WINDOW_CLOSED',
    );
    expect(codeOf(() => v.reinspect({ brakes: true }, INSPECTOR, days(2)))).toBe(
      'INVALID_CHECKLIST inspectionChecklist',
    );
    // Made within the window and sent from a phone after it: made is what counts.
    v.reinspect({ brakes: false, spareTire: true }, INSPECTOR, days(16), undefined, {
      at: days(14),
      earliest: days(12),
      maxAgeHours: 72,
    });
    expect(v.toState().dateInspected).toEqual(days(14));
    expect(codeOf(() => v.reinspect({ brakes: true }, INSPECTOR, days(17)))).toBe('REINSPECTION_NOT_OPEN');
    expect(codeOf(() => fresh().reinspect({}, INSPECTOR, days(1)))).toBe('REINSPECTION_NOT_OPEN');
  });

  it('after an appeal sends an inspection back: open again, never to the inspector appealed against', () => {
    const v = fresh();
    v.inspect(failing('brakes'), INSPECTOR, days(1), undefined, undefined, {
      grades: { brakes: 'dangerous' },
      inspectionId: '65a0000000000000000000f1',
    });
    expect(codeOf(() => v.orderReinspection('65a0000000000000000000f0', INSPECTOR, days(2)))).toBe(
      'INSPECTION_SUPERSEDED',
    );
    v.orderReinspection('65a0000000000000000000f1', INSPECTOR, days(2), 5);
    expect(v.toState()).toMatchObject({ reinspectionDueBy: days(7), reinspectionNotBy: INSPECTOR });
    expect(codeOf(() => v.reinspect({ brakes: true }, INSPECTOR, days(3)))).toBe('REINSPECTOR_TOOK_PART');
    v.reinspect({ brakes: true }, OTHER_INSPECTOR, days(3));
    expect(v.toState().reinspectionNotBy).toBeUndefined();
    v.orderReinspection(v.toState().inspectionId as string, INSPECTOR, days(4));
    expect(v.toState().reinspectionDueBy).toEqual(days(4 + DEFAULT_DAYS_TO_FIX));
  });
});

describe('appeals', () => {
  const record = (over: Partial<InspectionRecord> = {}): InspectionRecord => ({
    id: '65a0000000000000000000f1',
    vehicleId: '65a0000000000000000000f9',
    kind: 'inspection',
    checklist: failing('brakes'),
    grades: { brakes: 'major' },
    defects: {},
    advisories: {},
    outcome: 'failed',
    inspectorId: INSPECTOR,
    madeAt: days(1),
    receivedAt: days(1),
    ...over,
  });

  it('are lodged within the days allowed, for a failed or prohibited inspection, once', () => {
    const lodged = lodgeAppeal(record(), { lodgedBy: CLERK, grounds: ' The brakes  were fine ' }, days(16), 15);
    expect(lodged.appeal).toEqual({ lodgedBy: CLERK, lodgedAt: days(16), grounds: 'The brakes were fine' });
    expect(
      lodgeAppeal(record({ outcome: 'prohibited' }), { lodgedBy: CLERK, grounds: 'x' }, days(2), 15).appeal,
    ).toMatchObject({
      lodgedBy: CLERK,
    });
    expect(codeOf(() => lodgeAppeal(record(), { lodgedBy: CLERK, grounds: 'x' }, days(16.01), 15))).toBe(
      'APPEAL_WINDOW_CLOSED',
    );
    expect(codeOf(() => lodgeAppeal(lodged, { lodgedBy: CLERK, grounds: 'x' }, days(2), 15))).toBe(
      'APPEAL_ALREADY_LODGED',
    );
    for (const outcome of ['passed', 'passedWithAdvice', 'incomplete'] as const) {
      expect(codeOf(() => lodgeAppeal(record({ outcome }), { lodgedBy: CLERK, grounds: 'x' }, days(2), 15))).toBe(
        'APPEAL_NOT_ALLOWED',
      );
    }
    expect(codeOf(() => lodgeAppeal(record(), { lodgedBy: CLERK, grounds: '' }, days(2), 15))).toBe(
      'INVALID_TEXT grounds',
    );
    expect(codeOf(() => lodgeAppeal(record(), { lodgedBy: 'x', grounds: 'y' }, days(2), 15))).toBe(
      'INVALID_ID lodgedBy',
    );
  });

  it('are decided once, by someone who took no part, as upheld or sent back for re-inspection', () => {
    const lodged = lodgeAppeal(record(), { lodgedBy: CLERK, grounds: 'Fine' }, days(2), 15);
    expect(codeOf(() => decideAppeal(record(), { decidedBy: APPROVER, decision: 'upheld' }, days(3)))).toBe(
      'APPEAL_NOT_LODGED',
    );
    expect(codeOf(() => decideAppeal(lodged, { decidedBy: INSPECTOR, decision: 'upheld' }, days(3)))).toBe(
      'APPEAL_DECIDER_TOOK_PART',
    );
    expect(codeOf(() => decideAppeal(lodged, { decidedBy: CLERK, decision: 'upheld' }, days(3)))).toBe(
      'APPEAL_DECIDER_TOOK_PART',
    );
    expect(codeOf(() => decideAppeal(lodged, { decidedBy: APPROVER, decision: 'maybe' }, days(3)))).toBe(
      'INVALID_VALUE decision',
    );
    const decided = decideAppeal(lodged, { decidedBy: APPROVER, decision: 'reinspection' }, days(3));
    expect(decided.appeal).toMatchObject({ decidedBy: APPROVER, decidedAt: days(3), decision: 'reinspection' });
    expect(codeOf(() => decideAppeal(decided, { decidedBy: APPROVER, decision: 'upheld' }, days(4)))).toBe(
      'APPEAL_ALREADY_DECIDED',
    );
  });
});

import fc from 'fast-check';
import { DomainError } from '../shared/domain-error';
import { geoPoint } from '../shared/geo-point';
import {
  clearFraudFlag,
  DEFAULT_FRAUD_THRESHOLDS,
  distanceKm,
  explainFraudFlag,
  farFromStation,
  isPassingOutcome,
  parseFraudThresholds,
  passRateOutlier,
  photoReused,
  quickSuccession,
  stickerWithoutPhotos,
  wilsonInterval,
} from './fraud-signs';

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 8, 9, 0) + minutes * 60_000);
// Accra's central lorry station (Kwame Nkrumah Circle) and places around it.
const CIRCLE = geoPoint(-0.2167, 5.5719);
const KANESHIE = geoPoint(-0.2367, 5.5657);
const KUMASI = geoPoint(-1.6244, 6.6885);

describe('fraud signs (issue 46, item 6)', () => {
  describe('thresholds', () => {
    it('takes whole numbers within their limits, every field', () => {
      expect(parseFraudThresholds({ minMinutesBetween: 1, maxKmFromStation: 500, minInspectionsForRate: 5 })).toEqual({
        minMinutesBetween: 1,
        maxKmFromStation: 500,
        minInspectionsForRate: 5,
      });
      expect(parseFraudThresholds({ ...DEFAULT_FRAUD_THRESHOLDS })).toEqual(DEFAULT_FRAUD_THRESHOLDS);
    });

    it.each([
      [{ ...DEFAULT_FRAUD_THRESHOLDS, minMinutesBetween: 0 }, 'minMinutesBetween'],
      [{ ...DEFAULT_FRAUD_THRESHOLDS, maxKmFromStation: 501 }, 'maxKmFromStation'],
      [{ ...DEFAULT_FRAUD_THRESHOLDS, minInspectionsForRate: 4 }, 'minInspectionsForRate'],
      [{ ...DEFAULT_FRAUD_THRESHOLDS, minMinutesBetween: 2.5 }, 'minMinutesBetween'],
      [{ ...DEFAULT_FRAUD_THRESHOLDS, maxKmFromStation: '5' }, 'maxKmFromStation'],
      [{ ...DEFAULT_FRAUD_THRESHOLDS, minInspectionsForRate: null }, 'minInspectionsForRate'],
      [null, 'minMinutesBetween'],
    ])('refuses %j (field %s)', (body, field) => {
      expect(() => parseFraudThresholds(body)).toThrow(DomainError);
      expect(() => parseFraudThresholds(body)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE', field }));
    });
  });

  describe('quick succession', () => {
    it('flags two inspections closer than the minimum, either way round, and says how close', () => {
      expect(quickSuccession(at(4), at(0), 10)).toEqual({ minutes: 4 });
      expect(quickSuccession(at(0), at(2.55), 10)).toEqual({ minutes: 2.5 });
      expect(quickSuccession(at(10), at(0), 10)).toBeUndefined();
      expect(quickSuccession(at(10), undefined, 10)).toBeUndefined();
    });

    it('flags exactly the gaps below the minimum (property)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 1, max: 240 }), (gap, min) => {
          expect(quickSuccession(at(gap), at(0), min) !== undefined).toBe(gap < min);
        }),
      );
    });
  });

  describe('far from the station', () => {
    it('measures great-circle distance (haversine)', () => {
      expect(distanceKm(CIRCLE, CIRCLE)).toBe(0);
      expect(distanceKm(CIRCLE, KANESHIE)).toBeCloseTo(2.32, 1);
      // Accra to Kumasi is about 200 km as the crow flies.
      expect(distanceKm(CIRCLE, KUMASI)).toBeGreaterThan(195);
      expect(distanceKm(CIRCLE, KUMASI)).toBeLessThan(205);
      // A quarter of the Earth's circumference, pole to equator.
      expect(distanceKm(geoPoint(0, 90), geoPoint(0, 0))).toBeCloseTo(10_007.6, 0);
    });

    it('is symmetric, never negative, and obeys the triangle inequality (property)', () => {
      const point = fc
        .tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }))
        .map(([lon, lat]) => geoPoint(lon, lat));
      fc.assert(
        fc.property(point, point, point, (a, b, c) => {
          expect(distanceKm(a, b)).toBeGreaterThanOrEqual(0);
          expect(Math.abs(distanceKm(a, b) - distanceKm(b, a))).toBeLessThan(1e-6);
          expect(distanceKm(a, c)).toBeLessThanOrEqual(distanceKm(a, b) + distanceKm(b, c) + 1e-6);
        }),
      );
    });

    it('flags an inspection farther than the maximum, only when both places are known', () => {
      expect(farFromStation(KUMASI, CIRCLE, 5)).toEqual({ km: expect.closeTo(200, -1) });
      expect(farFromStation(KANESHIE, CIRCLE, 5)).toBeUndefined();
      expect(farFromStation(KANESHIE, CIRCLE, 2)).toEqual({ km: 2.3 });
      expect(farFromStation(undefined, CIRCLE, 5)).toBeUndefined();
      expect(farFromStation(KUMASI, undefined, 5)).toBeUndefined();
    });
  });

  describe('a photo used before', () => {
    const photo = { vehicleId: 'v1', inspectionKey: 'k1' };
    it('flags bytes sent before for another vehicle or another inspection, not a replay of this one', () => {
      expect(photoReused(photo, [])).toBeUndefined();
      expect(photoReused(photo, [photo])).toBeUndefined();
      expect(photoReused(photo, [photo, { vehicleId: 'v2', inspectionKey: 'k1' }])).toEqual({
        vehicleId: 'v2',
        inspectionKey: 'k1',
      });
      expect(photoReused(photo, [{ vehicleId: 'v1', inspectionKey: 'k0' }])).toEqual({
        vehicleId: 'v1',
        inspectionKey: 'k0',
      });
    });
  });

  it('flags a sticker with no photo of the last inspection', () => {
    expect(stickerWithoutPhotos(0)).toBe(true);
    expect(stickerWithoutPhotos(1)).toBe(false);
  });

  describe('pass-rate outlier', () => {
    it('counts passed and passed with advice as passes', () => {
      expect(['passed', 'passedWithAdvice', 'failed', 'prohibited', 'incomplete'].map(isPassingOutcome)).toEqual([
        true,
        true,
        false,
        false,
        false,
      ]);
    });

    it('gives a Wilson interval that stays sound for small counts and rates of 0 and 1', () => {
      const all = wilsonInterval({ passed: 20, total: 20 });
      expect(all.high).toBe(1);
      expect(all.low).toBeCloseTo(0.839, 3);
      const none = wilsonInterval({ passed: 0, total: 5 });
      expect(none.low).toBe(0);
      expect(none.high).toBeCloseTo(0.434, 3);
      expect(wilsonInterval({ passed: 0, total: 0 })).toEqual({ low: 0, high: 1 });
    });

    it('holds the rate inside its interval, within 0..1, narrowing as counts grow (property)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), (total, rate) => {
          const passed = Math.round(rate * total);
          const small = wilsonInterval({ passed, total });
          const large = wilsonInterval({ passed: passed * 4, total: total * 4 });
          expect(small.low).toBeGreaterThanOrEqual(0);
          expect(small.high).toBeLessThanOrEqual(1);
          expect(small.low).toBeLessThanOrEqual(passed / total + 1e-12);
          expect(small.high).toBeGreaterThanOrEqual(passed / total - 1e-12);
          expect(large.high - large.low).toBeLessThanOrEqual(small.high - small.low + 1e-12);
        }),
      );
    });

    it('names an inspector who passes or fails far more than the rest, with enough inspections on both sides', () => {
      const others = { passed: 30, total: 60 };
      expect(passRateOutlier({ passed: 20, total: 20 }, others, 20)).toEqual({
        direction: 'high',
        inspector: { passed: 20, total: 20 },
        others,
      });
      expect(passRateOutlier({ passed: 0, total: 20 }, others, 20)?.direction).toBe('low');
      // Not against a yardstick that is itself high, nor on too few inspections.
      expect(passRateOutlier({ passed: 20, total: 20 }, { passed: 16, total: 20 }, 20)).toBeUndefined();
      expect(passRateOutlier({ passed: 19, total: 19 }, others, 20)).toBeUndefined();
      expect(passRateOutlier({ passed: 20, total: 20 }, { passed: 5, total: 10 }, 20)).toBeUndefined();
      expect(passRateOutlier({ passed: 5, total: 5 }, { passed: 0, total: 5 }, 5)?.direction).toBe('high');
    });

    it('never names an inspector whose rate is the rest’s (property)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 5, max: 400 }), fc.integer({ min: 0, max: 100 }), (total, pct) => {
          const passed = Math.round((pct / 100) * total);
          expect(passRateOutlier({ passed, total }, { passed: passed * 3, total: total * 3 }, 5)).toBeUndefined();
        }),
      );
    });
  });

  it('explains every kind in a plain sentence', () => {
    expect(explainFraudFlag({ kind: 'quick-succession', minutes: 3.5, minMinutes: 10 })).toBe(
      'Inspection recorded 3.5 minutes after another by the same inspector (the minimum is 10)',
    );
    expect(explainFraudFlag({ kind: 'far-from-station', km: 200.4, maxKm: 5, station: 's' })).toBe(
      "Inspection made 200.4 km from the vehicle's station (more than 5 km)",
    );
    expect(
      explainFraudFlag({ kind: 'photo-reused', sha256: 'a', earlierVehicle: 'v', earlierInspectionKey: 'k' }),
    ).toMatch(/sent before for another inspection/);
    const rate = { passed: 20, total: 20, othersPassed: 30, othersTotal: 60 };
    expect(explainFraudFlag({ kind: 'pass-rate-outlier', direction: 'high', ...rate })).toBe(
      'The inspector passed 20 of 20 (100%); the rest of the assembly 30 of 60 (50%): far more passes than chance explains',
    );
    expect(explainFraudFlag({ kind: 'pass-rate-outlier', direction: 'low', ...rate })).toMatch(/far fewer passes/);
    expect(explainFraudFlag({ kind: 'sticker-without-photos' })).toMatch(/no photo/);
  });

  it('clears a flag once, with a plain reason', () => {
    const now = at(0);
    expect(clearFraudFlag({}, { by: 'u1', reason: '  Two buses of one owner, checked   together ' }, now)).toEqual({
      clearedAt: now,
      clearedBy: 'u1',
      reason: 'Two buses of one owner, checked together',
    });
    expect(() => clearFraudFlag({}, { by: 'u1', reason: '' }, now)).toThrow(
      expect.objectContaining({ code: 'INVALID_TEXT', field: 'reason' }),
    );
    expect(() => clearFraudFlag({}, { by: 'u1', reason: 'x'.repeat(501) }, now)).toThrow(
      expect.objectContaining({ code: 'INVALID_TEXT' }),
    );
    expect(() => clearFraudFlag({ clearedAt: now }, { by: 'u1', reason: 'Seen' }, now)).toThrow(
      expect.objectContaining({ code: 'FRAUD_FLAG_ALREADY_CLEARED', kind: 'conflict' }),
    );
  });
});

import { Driver } from '../driver/driver';
import { VehicleOwner } from '../owner/vehicle-owner';
import { DomainError } from '../shared/domain-error';
import { driverInput, ports, T0, vehicleInput } from '../testing/fixtures';
import { Vehicle } from '../vehicle/vehicle';
import {
  assemblyScope,
  covers,
  jurisdictionOf,
  NATIONWIDE,
  placeNewRecord,
  transferDestination,
  withinJurisdiction,
} from './jurisdiction';

const ACCRA = '65b000000000000000000001';
const KUMASI = '65b000000000000000000002';

describe('jurisdiction', () => {
  it('is an assembly for assembly staff, nationwide for everyone else', () => {
    expect(jurisdictionOf({ role: 'assembly', id: 'u', assemblyId: ACCRA })).toEqual({ assemblyId: ACCRA });
    for (const role of ['admin', 'platform', 'merchant', 'anonymous', 'system'] as const) {
      expect(jurisdictionOf({ role, id: 'x' })).toBe(NATIONWIDE);
    }
    // Staff whose assembly is unknown cover nothing at all, not everything.
    const lost = jurisdictionOf({ role: 'assembly', id: 'u' });
    expect(covers(lost, { assemblyId: ACCRA })).toBe(false);
    expect(covers(lost, {})).toBe(false);
  });

  it('covers its own assembly only; unassigned records are for nationwide callers', () => {
    const accra = { assemblyId: ACCRA };
    expect(covers(accra, { assemblyId: ACCRA })).toBe(true);
    expect(covers(accra, { assemblyId: KUMASI })).toBe(false);
    expect(covers(accra, {})).toBe(false);
    expect(covers(NATIONWIDE, {})).toBe(true);
    expect(covers(NATIONWIDE, { assemblyId: KUMASI })).toBe(true);
    expect(assemblyScope(accra)).toBe(ACCRA);
    expect(assemblyScope(NATIONWIDE)).toBeUndefined();
  });

  it('answers a record outside the jurisdiction exactly like a missing one', () => {
    const record = { toState: () => ({ assemblyId: KUMASI }) };
    expect(withinJurisdiction(NATIONWIDE, record, 'vehicle', 'v1')).toBe(record);
    const outside = () => withinJurisdiction({ assemblyId: ACCRA }, record, 'vehicle', 'v1');
    const missing = () => withinJurisdiction({ assemblyId: ACCRA }, undefined, 'vehicle', 'v1');
    expect(outside).toThrow(DomainError);
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return { code: (error as DomainError).code, message: (error as DomainError).message };
      }
    };
    expect(message(outside)).toEqual({ code: 'NOT_FOUND', message: 'No vehicle with id v1' });
    expect(message(outside)).toEqual(message(missing));
  });

  it('places a new record in the staff member’s assembly, or where a nationwide caller says, or where it derives from', () => {
    expect(placeNewRecord({ assemblyId: ACCRA }, undefined)).toBe(ACCRA);
    expect(placeNewRecord({ assemblyId: ACCRA }, ACCRA, KUMASI)).toBe(ACCRA);
    expect(() => placeNewRecord({ assemblyId: ACCRA }, KUMASI)).toThrow(
      expect.objectContaining({ code: 'OTHER_ASSEMBLY', field: 'assembly' }),
    );
    expect(placeNewRecord(NATIONWIDE, KUMASI, ACCRA)).toBe(KUMASI);
    expect(placeNewRecord(NATIONWIDE, undefined, ACCRA)).toBe(ACCRA);
    expect(placeNewRecord(NATIONWIDE, undefined)).toBeUndefined();
    expect(() => placeNewRecord(NATIONWIDE, 'nope')).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
  });

  it('transfers only to another assembly, by a well-formed id', () => {
    expect(transferDestination({}, ACCRA)).toBe(ACCRA);
    expect(transferDestination({ assemblyId: KUMASI }, ACCRA)).toBe(ACCRA);
    expect(() => transferDestination({ assemblyId: ACCRA }, ACCRA)).toThrow(
      expect.objectContaining({ code: 'ALREADY_IN_ASSEMBLY', kind: 'conflict' }),
    );
    expect(() => transferDestination({}, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
  });

  it('moves owners, vehicles and drivers between assemblies, recording where from and to', () => {
    const p = ports();
    const at = new Date(T0.getTime() + 1000);

    const owner = VehicleOwner.register(
      {
        name: 'Ama Owusu',
        phone: '0244000001',
        email: 'ama@example.com',
        idType: 'ghana_card',
        idNumber: 'GHA-1',
        assemblyId: ACCRA,
      },
      p.ids,
      T0,
    );
    expect(owner.toState().assemblyId).toBe(ACCRA);
    owner.transferTo(KUMASI, at);
    expect(owner.toState()).toMatchObject({ assemblyId: KUMASI, updatedAt: at });

    const vehicle = Vehicle.register(vehicleInput(), p.ids, T0);
    expect(vehicle.toState().assemblyId).toBeUndefined();
    vehicle.pullEvents();
    vehicle.transferTo(ACCRA, at);
    expect(vehicle.toState()).toMatchObject({ assemblyId: ACCRA, updatedAt: at });
    expect(vehicle.pullEvents()).toEqual([
      { type: 'VehicleTransferred', aggregateId: vehicle.id, at, data: { from: null, to: ACCRA } },
    ]);
    expect(Vehicle.register(vehicleInput({ assemblyId: KUMASI }), p.ids, T0).toState().assemblyId).toBe(KUMASI);

    const { driver } = Driver.register(driverInput({ assemblyId: ACCRA }), p, T0);
    driver.pullEvents();
    driver.transferTo(KUMASI, at);
    expect(driver.toState()).toMatchObject({ assemblyId: KUMASI, updatedAt: at });
    expect(driver.pullEvents()).toEqual([
      { type: 'DriverTransferred', aggregateId: driver.id, at, data: { from: ACCRA, to: KUMASI } },
    ]);
    expect(() => driver.transferTo(KUMASI, at)).toThrow(expect.objectContaining({ code: 'ALREADY_IN_ASSEMBLY' }));
    const unassigned = Driver.register(driverInput({ email: 'other@example.com' }), p, T0).driver;
    unassigned.transferTo(ACCRA, at);
    expect(unassigned.pullEvents().at(-1)?.data).toEqual({ from: null, to: ACCRA });
  });
});

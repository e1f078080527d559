import { VEHICLE_SUMMARY_FIELDS } from '@transport/domain';
import { seesSummaryOnly, VEHICLE_PUBLIC_FIELDS, VIEWS } from './views';

describe('the public view of a vehicle', () => {
  it("is the vehicle's summary, field for field, by the names the interface gives them", () => {
    expect(VEHICLE_PUBLIC_FIELDS).toEqual([
      '_id',
      'registrationNumber',
      'make',
      'model',
      'color',
      'type',
      'capacity',
      'inspected',
      'approved',
      'station',
      'transportUnion',
      'createdAt',
      'updatedAt',
      '__v',
    ]);
    expect(VEHICLE_PUBLIC_FIELDS).toHaveLength(VEHICLE_SUMMARY_FIELDS.length);
    expect(Object.keys(VIEWS.vehicle.anonymous)).toEqual(VEHICLE_PUBLIC_FIELDS);
    expect(seesSummaryOnly('vehicle', 'merchant')).toBe(true);
    expect(seesSummaryOnly('vehicle', 'platform')).toBe(false);
  });
});

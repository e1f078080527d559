import { vehicleColourKey } from './vehicle-colours';

describe('vehicleColourKey', () => {
  it('names a colour by its long or short hex in any case', () => {
    expect(vehicleColourKey('#FFD700')).toBe('gold');
    expect(vehicleColourKey('#fff')).toBe('white');
    expect(vehicleColourKey('#ffffff')).toBe('white');
  });

  it('has no name for a colour not in the list', () => {
    expect(vehicleColourKey('#123456')).toBeUndefined();
  });
});

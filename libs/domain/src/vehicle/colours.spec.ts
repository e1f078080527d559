import { vehicleColour, VEHICLE_COLOURS } from './colours';

describe('vehicle colours by name', () => {
  it('names a stored hex in either spelling and case', () => {
    expect(vehicleColour('#FFD700')).toEqual({ key: 'gold', name: 'Gold' });
    expect(vehicleColour('#fff')).toEqual({ key: 'white', name: 'White' });
    expect(vehicleColour(' #000080 ')).toEqual({ key: 'navy', name: 'Navy blue' });
  });

  it('has no name for a colour not in the list, nor for something that is no hex', () => {
    expect(vehicleColour('#123456')).toBeUndefined();
    expect(vehicleColour('#12')).toBeUndefined();
  });

  it('lists each colour once, by a hex the record can keep', () => {
    const hexes = VEHICLE_COLOURS.map(([hex]) => hex);
    expect(new Set(hexes).size).toBe(hexes.length);
    for (const hex of hexes) expect(hex).toMatch(/^#[0-9A-F]{6}$/);
  });
});

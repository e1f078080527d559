import { ports, T0, days } from '../test-support/fixtures';
import { VehicleOwner } from './vehicle-owner';

const input = {
  name: ' Kofi Asante ',
  phone: '0244123456',
  email: 'Kofi@Example.com',
  idType: 'ghana_card',
  idNumber: 'gha-712345678-9',
};

describe('VehicleOwner', () => {
  it('registers unverified with a canonical phone and a lower-case email', () => {
    const o = VehicleOwner.register(input, ports().ids, T0);
    expect(o.toState()).toMatchObject({
      name: 'Kofi Asante',
      phone: '+233244123456',
      email: 'kofi@example.com',
      idNumber: 'GHA-712345678-9',
      verified: false,
      version: 0,
    });
  });

  it('is verified once; verifying again is a conflict that changes nothing', () => {
    const o = VehicleOwner.register(input, ports().ids, T0);
    o.verify(days(1));
    expect(o.toState()).toMatchObject({ verified: true, updatedAt: days(1) });
    expect(() => o.verify(days(2))).toThrow(
      expect.objectContaining({ code: 'OWNER_ALREADY_VERIFIED', kind: 'conflict' }),
    );
    expect(o.toState().updatedAt).toEqual(days(1));
  });

  it('refuses an unknown id type', () => {
    expect(() => VehicleOwner.register({ ...input, idType: 'library' }, ports().ids, T0)).toThrow(/idType/);
  });

  it('restores from state', () => {
    const o = VehicleOwner.restore({ ...VehicleOwner.register(input, ports().ids, T0).toState(), version: 2 });
    expect([o.version, typeof o.id]).toEqual([2, 'string']);
  });
});

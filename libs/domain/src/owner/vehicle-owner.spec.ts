import { ports, T0, days } from '../testing/fixtures';
import { VehicleOwner } from './vehicle-owner';

const input = {
  name: ' Kofi Asante ',
  phone: '0244123456',
  email: 'Kofi@Example.com',
  idType: 'ghana_card',
  idNumber: 'gha-712345678-9',
};

describe('VehicleOwner', () => {
  it("keeps the owner's language (English when none is given), refuses one not spoken here, and corrects it", () => {
    expect(VehicleOwner.register(input, ports().ids, T0).toState().language).toBe('en');
    const o = VehicleOwner.register({ ...input, language: 'Gaa' }, ports().ids, T0);
    expect(o.toState().language).toBe('gaa');
    expect(() => VehicleOwner.register({ ...input, language: 'fr' }, ports().ids, T0)).toThrow(
      expect.objectContaining({ code: 'INVALID_LANGUAGE', kind: 'validation' }),
    );
    expect(o.correct({ language: 'dag' }, days(1))).toEqual(['language']);
    expect(o.toState().language).toBe('dag');
    expect(o.correct({ language: 'dag' }, days(2))).toEqual([]);
  });

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

  it('keeps an owner from history without an e-mail (registered by phone only), and lets a correction add one', () => {
    const { email: _none, ...byPhone } = input;
    const o = VehicleOwner.keepFromHistory(byPhone, ports().ids, T0);
    expect(o.toState()).not.toHaveProperty('email');
    expect(o.toState()).toMatchObject({ phone: '+233244123456', idNumber: 'GHA-712345678-9' });
    expect(VehicleOwner.keepFromHistory(input, ports().ids, T0).toState().email).toBe('kofi@example.com');
    expect(o.correct({ email: 'Kofi@Example.com' }, days(1))).toEqual(['email']);
    expect(o.toState().email).toBe('kofi@example.com');
  });

  it('refuses an unknown id type', () => {
    expect(() => VehicleOwner.register({ ...input, idType: 'library' }, ports().ids, T0)).toThrow(/idType/);
  });

  it('restores from state', () => {
    const o = VehicleOwner.restore({ ...VehicleOwner.register(input, ports().ids, T0).toState(), version: 2 });
    expect([o.version, typeof o.id]).toEqual([2, 'string']);
  });
});

describe('VehicleOwner corrections', () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as { code: string }).code;
    }
    return 'none';
  };

  it('corrects contact details as registration checks them, and changes nothing when nothing differs', () => {
    const o = VehicleOwner.register(input, ports().ids, T0);
    const before = o.toState();
    expect(o.correct({ phone: '+233 24 412 3456', email: 'KOFI@example.com', name: undefined }, days(1))).toEqual([]);
    expect(o.toState()).toEqual(before);
    expect(o.correct({ name: 'Kofi Asante Jnr', phone: '0501234567' }, days(1))).toEqual(['name', 'phone']);
    expect(o.toState()).toMatchObject({ name: 'Kofi Asante Jnr', phone: '+233501234567', updatedAt: days(1) });
    expect(codeOf(() => o.correct({ email: 'not an email' }, days(2)))).toBe('INVALID_EMAIL');
  });

  it('corrects the identity document until verification, and refuses it afterwards', () => {
    const o = VehicleOwner.register(input, ports().ids, T0);
    expect(o.correct({ idNumber: 'GHA-712345678-0' }, days(1))).toEqual(['idNumber']);
    o.verify(days(2));
    expect(codeOf(() => o.correct({ idType: 'passport' }, days(3)))).toBe('CORRECTION_NOT_ALLOWED');
    expect(codeOf(() => o.correct({ idNumber: 'GHA-712345678-1' }, days(3)))).toBe('CORRECTION_NOT_ALLOWED');
    expect(o.correct({ email: 'kofi.asante@example.com' }, days(3))).toEqual(['email']);
    expect(o.toState().idNumber).toBe('GHA-712345678-0');
  });
});

import {
  isTextable,
  normalizeDigitalAddress,
  normalizeEmail,
  normalizePhone,
  phoneSearchForms,
  requireText,
  textablePhone,
} from './contact';
import { parseGeoPoint, geoPoint } from './geo-point';
import { documentNumber, oneOf } from './identity';
import { idList } from './id-generator';
import { assertPesewas, cedisToPesewas, MAX_PESEWAS, pesewasToCedis } from './money';
import { CommonErrors, DuplicateErrors, ReferenceErrors } from './common.errors';

describe('phone numbers', () => {
  it.each([
    ['0244123456', '+233244123456'],
    ['+233244123456', '+233244123456'],
    ['233244123456', '+233244123456'],
    ['+233 24 412-3456', '+233244123456'],
    ['(024) 412 3456', '+233244123456'],
    ['+2348012345678', '+2348012345678'],
  ])('reads %s as %s', (raw, canonical) => {
    expect(normalizePhone(raw)).toBe(canonical);
  });

  it.each(['12345', '024412345', '+23324412345', '+2330244123456', 'phone', ''])('refuses %s', (raw) => {
    expect(() => normalizePhone(raw)).toThrow(/phone number/);
  });

  it('refuses a non-string', () => {
    expect(() => normalizePhone(244123456 as never, 'customerPhone')).toThrow(/customerPhone/);
  });

  it.each(['024 412 3456', '+233 24 412 3456', '233-24-412-3456', '(024) 412-3456'])(
    'takes %s as the Ghanaian number it is, which may be texted',
    (raw) => {
      expect(textablePhone(raw, ['233'])).toBe('+233244123456');
    },
  );

  it('refuses a number of a country outside the list, naming the field and the countries allowed', () => {
    expect(() => textablePhone('+44 7700 900123', ['233'], 'contactNumber')).toThrow(
      expect.objectContaining({
        code: 'PHONE_NOT_ALLOWED',
        field: 'contactNumber',
        message: expect.stringMatching(/\+233/),
      }),
    );
    expect(textablePhone('+44 7700 900123', ['233', '44'])).toBe('+447700900123');
    expect(isTextable('+2348012345678', ['233'])).toBe(false);
    expect(isTextable('+233244123456', ['1', '233'])).toBe(true);
    // Malformed stays malformed: INVALID_PHONE first.
    expect(() => textablePhone('12345', ['233'])).toThrow(expect.objectContaining({ code: 'INVALID_PHONE' }));
  });

  it('offers both spellings of a Ghana number for search', () => {
    expect(phoneSearchForms('024412')).toEqual(['024412', '+23324412']);
    expect(phoneSearchForms('+233 2441')).toEqual(['+2332441', '02441']);
    expect(phoneSearchForms('kofi')).toEqual(['kofi']);
  });
});

describe('emails, digital addresses, text', () => {
  it('lower-cases and checks emails', () => {
    expect(normalizeEmail('  Ama.Owusu@Example.COM ')).toBe('ama.owusu@example.com');
    for (const bad of ['ama', 'ama@', '@example.com', 'ama@example', `${'a'.repeat(250)}@example.com`, 7]) {
      expect(() => normalizeEmail(bad as string)).toThrow(/email/);
    }
  });

  it('checks GhanaPostGPS addresses', () => {
    expect(normalizeDigitalAddress(' ak-039-5028 ')).toBe('AK-039-5028');
    expect(normalizeDigitalAddress('GA-1070-2123')).toBe('GA-1070-2123');
    for (const bad of ['AK0395028', 'A-039-5028', 'AK-39-5028', 5])
      expect(() => normalizeDigitalAddress(bad as string)).toThrow(/GhanaPostGPS/);
  });

  it('trims text, bounds its length and keeps it plain', () => {
    expect(requireText('  Kofi ', 'name')).toBe('Kofi');
    expect(requireText("Ama  O'Brien-Owusu", 'name')).toBe("Ama O'Brien-Owusu");
    expect(requireText('Ɔkɔmfo Anɔkye', 'name')).toBe('Ɔkɔmfo Anɔkye');
    for (const bad of ["'; DROP TABLE vehicles; --", '<b>x</b>', 'a\u0000b', '🚕', '${x}'])
      expect(() => requireText(bad, 'name')).toThrow(/letters, digits/);
    expect(() => requireText('x'.repeat(11), 'name', 10)).toThrow(/1 to 10/);
    expect(() => requireText(undefined, 'name')).toThrow(/name/);
  });

  it('checks enumerations, document numbers and id lists', () => {
    expect(oneOf(['a', 'b'] as const, 'b', 'f')).toBe('b');
    expect(() => oneOf(['a'] as const, 'z', 'f')).toThrow(/one of a/);
    expect(documentNumber(' gha-1/2 ', 'idNumber')).toBe('GHA-1/2');
    expect(idList(['65a000000000000000000001', '65a000000000000000000001'], 'zones')).toEqual([
      '65a000000000000000000001',
    ]);
    expect(() => idList('x' as never, 'zones')).toThrow(/list/);
    expect(() => idList(Array(101).fill('65a000000000000000000001'), 'zones')).toThrow(/at most 100/);
    expect(() => idList(['nope'], 'zones')).toThrow(/24-character/);
  });

  it('builds errors for missing and duplicate records', () => {
    expect(CommonErrors.notFound('vehicle', 'x')).toMatchObject({ code: 'NOT_FOUND', kind: 'not_found' });
    expect(CommonErrors.duplicate('DRIVER_EMAIL_TAKEN', 'taken', 'email')).toMatchObject({
      code: 'DRIVER_EMAIL_TAKEN',
      kind: 'conflict',
      field: 'email',
    });
    expect(DuplicateErrors.activatedDriverEmail()).toMatchObject({
      code: 'DRIVER_EMAIL_TAKEN',
      kind: 'conflict',
      field: 'email',
      message: expect.stringContaining('register again with your own e-mail'),
    });
    expect(DuplicateErrors.assemblyUserPhone()).toMatchObject({
      code: 'ASSEMBLY_USER_PHONE_TAKEN',
      kind: 'conflict',
      field: 'phone',
      message: expect.stringContaining('a person has one account'),
    });
  });

  it('reports a reference to a missing record as a rule (422), not as the 404 of the addressed record', () => {
    expect(ReferenceErrors.missing('owner', '65a000000000000000000001', 'ownerID')).toMatchObject({
      code: 'OWNER_NOT_FOUND',
      kind: 'rule',
      field: 'ownerID',
      message: 'ownerID 65a000000000000000000001 names no record',
    });
    expect(ReferenceErrors.missing('transportUnion', 'x')).toMatchObject({
      code: 'TRANSPORT_UNION_NOT_FOUND',
      kind: 'rule',
      field: 'transportUnion',
    });
  });
});

describe('money', () => {
  it('converts cedis with up to two decimals to pesewas exactly', () => {
    expect(cedisToPesewas(25.5, 'amount')).toBe(2550);
    expect(cedisToPesewas(0.1 + 0.2, 'amount')).toBe(30);
    expect(cedisToPesewas(19.99, 'amount')).toBe(1999);
    expect(pesewasToCedis(1999)).toBe(19.99);
  });

  it.each([[-1], [1.234], [NaN], [Infinity], ['5' as never], [MAX_PESEWAS]])('refuses %p cedis', (value) => {
    expect(() => cedisToPesewas(value, 'amount')).toThrow(/amount/);
  });

  it('bounds pesewas', () => {
    expect(assertPesewas(MAX_PESEWAS, 'x')).toBe(MAX_PESEWAS);
    expect(() => assertPesewas(MAX_PESEWAS + 1, 'x')).toThrow(/whole number/);
    expect(() => assertPesewas(0.5, 'x')).toThrow(/whole number/);
  });
});

describe('GeoJSON points', () => {
  it('keeps [longitude, latitude] order and bounds', () => {
    expect(geoPoint(-0.2, 5.6)).toEqual({ type: 'Point', coordinates: [-0.2, 5.6] });
    expect(() => geoPoint(181, 0)).toThrow(/longitude/);
    expect(() => geoPoint(0, -91)).toThrow(/latitude/);
    expect(() => geoPoint(NaN, 0)).toThrow(/longitude/);
    expect(() => geoPoint(0, '5' as never)).toThrow(/latitude/);
  });

  it('parses received GeoJSON', () => {
    expect(parseGeoPoint({ type: 'Point', coordinates: [1, 2] })).toEqual({ type: 'Point', coordinates: [1, 2] });
    for (const bad of [
      null,
      'x',
      { type: 'Line', coordinates: [1, 2] },
      { type: 'Point', coordinates: [1] },
      { type: 'Point', coordinates: 'ab' },
    ]) {
      expect(() => parseGeoPoint(bad, 'pickupLocation')).toThrow(/pickupLocation/);
    }
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mappableFields } from './collections';
import { MAX_DISTINCT_PER_FIELD, readValueMap, ValueReader, ValueRefusal, writeValueMap } from './value-reader';

const DRIVER = { idType: 'idType', licenseClass: 'licenseClass', gender: 'gender' } as const;

describe('reading the values people typed', () => {
  it('folds each enumerated field, leaves the rest, and counts every folded value once per spelling', () => {
    const reader = new ValueReader({}, mappableFields());
    const doc = { _id: 'a', idType: 'Voters ID', licenseClass: 'Cat. B', gender: 'female', name: 'Ama' };
    expect(reader.read('drivers', doc, DRIVER, 'a')).toEqual({ ...doc, idType: 'voter_id', licenseClass: 'B' });
    reader.read('drivers', { idType: 'Voters ID', licenseClass: 'B', gender: 'F' }, DRIVER, 'b');
    expect(reader.foldedValues()).toEqual(
      expect.arrayContaining([
        { field: 'drivers.idType', value: 'Voters ID', to: 'voter_id', records: 2, mapped: false },
        { field: 'drivers.licenseClass', value: 'Cat. B', to: 'B', records: 1, mapped: false },
        { field: 'drivers.gender', value: 'F', to: 'female', records: 1, mapped: false },
      ]),
    );
  });

  it('folds nested paths without changing the record read', () => {
    const reader = new ValueReader({}, mappableFields());
    const trip = { service: { type: 'On Demand', driver: { name: 'Kofi' } }, paymentMethod: 'Mobile Money' };
    const read = reader.read('trips', trip, { 'service.type': 'serviceType', paymentMethod: 'paymentMethod' });
    expect(read).toEqual({ service: { type: 'taxi', driver: { name: 'Kofi' } }, paymentMethod: 'momo' });
    expect(trip.service.type).toBe('On Demand');
  });

  it('refuses a record naming every value it could not place, and lists each distinct one with a count and an example', () => {
    const reader = new ValueReader({}, mappableFields());
    const refused = () => reader.read('drivers', { idType: 'Votr Crd', gender: 'Fmale' }, DRIVER, 'x1');
    expect(refused).toThrow(ValueRefusal);
    expect(refused).toThrow(/idType "Votr Crd" is none of ghana_card.*; gender "Fmale" is none of male/);
    expect(() => reader.read('drivers', { idType: 'VOTR-CRD' }, DRIVER, 'x3')).toThrow(ValueRefusal);
    // Spellings that fold the same are one value to map: the first spelling read, the first record's id.
    expect(reader.unplacedValues()).toEqual([
      { field: 'drivers.idType', kind: 'idType', value: 'Votr Crd', records: 3, example: 'x1' },
      { field: 'drivers.gender', kind: 'gender', value: 'Fmale', records: 2, example: 'x1' },
    ]);
  });

  it('takes the operator’s mapping before the normaliser, by collection.field or by a field every collection shares', () => {
    const reader = new ValueReader(
      { 'drivers.idType': { 'Votr Crd': 'voter_id' }, gender: { Fmale: 'female', Pending: '' } },
      mappableFields(),
    );
    expect(reader.read('drivers', { idType: 'VOTR CRD', gender: 'fmale' }, DRIVER)).toEqual({
      idType: 'voter_id',
      gender: 'female',
    });
    expect(reader.foldedValues().every((f) => f.mapped)).toBe(true);
    // An entry left empty is not filled in: the value stays unplaced.
    expect(() => reader.read('drivers', { gender: 'Pending' }, DRIVER)).toThrow(ValueRefusal);
  });

  it('refuses a mapping to a value that is not the domain’s, or of a field it does not read', () => {
    expect(() => new ValueReader({ 'drivers.idType': { x: 'voters' } }, mappableFields())).toThrow(
      /drivers.idType "x" -> "voters": the value here must be one of ghana_card/,
    );
    expect(() => new ValueReader({ type: { x: 'bus' } }, mappableFields())).toThrow(/"type" is not a field/);
    expect(() => new ValueReader({ 'vehicles.color': { Sky: '#87CEEB' } }, mappableFields())).not.toThrow();
  });

  it('writes a mapping file to fill in, which read back with values places everything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'value-map-'));
    for (const file of ['map.yaml', 'map.json']) {
      const reader = new ValueReader({}, mappableFields());
      expect(() => reader.read('drivers', { idType: 'Votr Crd', gender: 'Fmale' }, DRIVER, 'x1')).toThrow();
      expect(() => reader.read('drivers', { idType: 'votr-crd' }, DRIVER, 'x2')).toThrow();
      expect(reader.unplacedValues()).toEqual([
        { field: 'drivers.idType', kind: 'idType', value: 'Votr Crd', records: 2, example: 'x1' },
        { field: 'drivers.gender', kind: 'gender', value: 'Fmale', records: 1, example: 'x1' },
      ]);
      const path = join(dir, file);
      writeValueMap(path, reader.unplacedValues(), { 'vehicles.color': { Sky: '#87CEEB' } });
      const text = readFileSync(path, 'utf8');
      if (file.endsWith('.yaml'))
        expect(text).toMatch(/# drivers\.idType: one of ghana_card.*\n.*\n\s+Votr Crd: "" # 2 records, e.g. x1/);
      expect(readValueMap(path)).toEqual({
        'vehicles.color': { Sky: '#87CEEB' },
        'drivers.idType': { 'Votr Crd': '' },
        'drivers.gender': { Fmale: '' },
      });
      writeFileSync(
        path,
        text
          .replace('Votr Crd": ""', 'Votr Crd": "voter_id"')
          .replace('Votr Crd: ""', 'Votr Crd: voter_id')
          .replace(/Fmale"?: ""/, (m) => m.replace('""', 'female')),
      );
      const filled = new ValueReader(readValueMap(path), mappableFields());
      expect(filled.read('drivers', { idType: 'votr-crd', gender: 'Fmale' }, DRIVER)).toEqual({
        idType: 'voter_id',
        gender: 'female',
      });
    }
  });

  it('lists at most MAX_DISTINCT_PER_FIELD values of a field, and counts every record all the same', () => {
    const reader = new ValueReader({}, mappableFields());
    const extra = 5;
    for (let n = 0; n < MAX_DISTINCT_PER_FIELD + extra; n++) {
      const colour = `#${n.toString(16).padStart(6, '0')}`.replace(/^#0/, '#a');
      reader.read('vehicles', { color: colour }, { color: 'color' });
      expect(() => reader.read('drivers', { gender: `g${n}` }, DRIVER)).toThrow(ValueRefusal);
    }
    expect(reader.foldedValues()).toHaveLength(MAX_DISTINCT_PER_FIELD);
    expect(reader.unplacedValues()).toHaveLength(MAX_DISTINCT_PER_FIELD);
    expect(reader.foldedRecords.get('vehicles.color')).toBe(MAX_DISTINCT_PER_FIELD + extra);
    expect([...reader.notListed.values()]).toEqual([
      { field: 'vehicles.color', kind: 'folded', records: extra },
      { field: 'drivers.gender', kind: 'unplaced', records: extra },
    ]);
  });
});

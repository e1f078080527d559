import { COLLECTIONS } from './collections';
import { FieldMap } from './field-map';

describe('reading fields under the names older schema versions gave them', () => {
  it('reads the licence fields and colour under today’s names, counting each rename', () => {
    const fields = new FieldMap(COLLECTIONS);
    const doc = { _id: 'a', licenceClass: 'B', licence: 'DL-1', name: 'Ama' };
    expect(fields.read('drivers', doc)).toEqual({ _id: 'a', licenseClass: 'B', license: 'DL-1', name: 'Ama' });
    expect(doc).toHaveProperty('licenceClass');
    expect(fields.read('vehicles', { colour: 'White' })).toEqual({ color: 'White' });
    expect(fields.renamed()).toContainEqual({
      collection: 'drivers',
      renamedField: 'licenceClass',
      to: 'licenseClass',
      records: 1,
    });
  });

  it('keeps the new name’s value when a record holds both, leaving the old for the unknown-field list', () => {
    const fields = new FieldMap(COLLECTIONS);
    expect(fields.read('drivers', { license: 'DL-2', licence: 'DL-1' })).toEqual({ license: 'DL-2', licence: 'DL-1' });
    expect(fields.renamed()).toEqual([]);
  });

  it('takes the operator’s renames, per collection or for every collection that knows the name', () => {
    const fields = new FieldMap(COLLECTIONS, { 'vehicles.plate': 'registrationNumber', mobile: 'phone' });
    expect(fields.read('vehicles', { plate: 'GR 1-24' })).toEqual({ registrationNumber: 'GR 1-24' });
    expect(fields.read('drivers', { mobile: '0244' })).toEqual({ phone: '0244' });
    expect(fields.read('vehicleowners', { mobile: '0244' })).toEqual({ phone: '0244' });
    expect(fields.read('drivers', { plate: 'x' })).toEqual({ plate: 'x' });
  });

  it('refuses a rename to a field the import does not read, or of a collection it does not know, naming it', () => {
    expect(() => new FieldMap(COLLECTIONS, { 'vehicles.plate': 'numberPlate' })).toThrow(
      'mapping: fields: "vehicles.plate" -> "numberPlate": the name here must be a field the import reads in vehicles',
    );
    expect(() => new FieldMap(COLLECTIONS, { 'cars.plate': 'registrationNumber' })).toThrow(
      '"cars.plate" names no collection',
    );
    expect(() => new FieldMap(COLLECTIONS, { plate: 4 })).toThrow('must be a field the import reads');
  });
});

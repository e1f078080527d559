import { DomainError } from '../shared/domain-error';
import { INSPECTION_ITEMS } from './inspection-checklist';
import {
  missingInspectionPhotos,
  parseInspectionPhotoSubject,
  requiredInspectionPhotos,
  seesPhotoLocation,
} from './inspection-photo';

describe('parseInspectionPhotoSubject', () => {
  it('takes the plate and the VIN without an item, and an item photo with a checklist item', () => {
    expect(parseInspectionPhotoSubject('plate', undefined)).toEqual({ kind: 'plate' });
    expect(parseInspectionPhotoSubject('vin', undefined)).toEqual({ kind: 'vin' });
    for (const item of INSPECTION_ITEMS)
      expect(parseInspectionPhotoSubject('item', item)).toEqual({ kind: 'item', item });
  });

  it.each([
    ['selfie', undefined, 'kind'],
    [undefined, undefined, 'kind'],
    ['plate', 'brakes', 'item'],
    ['item', undefined, 'item'],
    ['item', 'engine', 'item'],
  ])('refuses kind %j with item %j, naming %s', (kind, item, field) => {
    expect.assertions(3);
    try {
      parseInspectionPhotoSubject(kind, item);
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('INVALID_VALUE');
      expect((error as DomainError).field).toBe(field);
    }
  });
});

describe('seesPhotoLocation', () => {
  it('shows where a photo was taken to national admins and to assembly approvers and admins, not inspectors', () => {
    expect(seesPhotoLocation({ role: 'admin' })).toBe(true);
    expect(seesPhotoLocation({ role: 'assembly', assemblyRole: 'approver' })).toBe(true);
    expect(seesPhotoLocation({ role: 'assembly', assemblyRole: 'admin' })).toBe(true);
    expect(seesPhotoLocation({ role: 'assembly', assemblyRole: 'inspector' })).toBe(false);
  });
});

describe('required inspection photos', () => {
  const passing = Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, true]));
  it('are the plate, the VIN and each failed item graded dangerous or major (a minor one is not required)', () => {
    const checklist = { ...passing, brakes: false, headlights: false, spareTire: false };
    const required = requiredInspectionPhotos(checklist, { brakes: 'dangerous', spareTire: 'minor' });
    expect(required).toEqual([
      { kind: 'plate' },
      { kind: 'vin' },
      { kind: 'item', item: 'headlights' },
      { kind: 'item', item: 'brakes' },
    ]);
    expect(requiredInspectionPhotos(checklist, {}, 'reinspection')).toEqual([
      { kind: 'item', item: 'spareTire' },
      { kind: 'item', item: 'headlights' },
      { kind: 'item', item: 'brakes' },
    ]);
    expect(
      missingInspectionPhotos(required, [
        { kind: 'vin' },
        { kind: 'item', item: 'headlights' },
        { kind: 'item', item: 'x' },
      ]),
    ).toEqual([{ kind: 'plate' }, { kind: 'item', item: 'brakes' }]);
    expect(missingInspectionPhotos(required.slice(0, 2), [{ kind: 'plate' }, { kind: 'vin' }])).toEqual([]);
  });
});

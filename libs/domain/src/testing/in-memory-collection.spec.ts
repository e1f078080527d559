import { InMemoryCollection, newestFirst } from './in-memory-collection';
import { CommonErrors } from '../shared/common.errors';

interface Row {
  id: string;
  version: number;
  createdAt: Date;
  tag?: string;
}

const at = new Date('2026-01-01T00:00:00Z');
const collection = () =>
  new InMemoryCollection<Row, Row>(
    'row',
    (r) => ({ ...r }),
    (r) => ({ ...r }),
    [{ key: (r) => r.tag, error: () => CommonErrors.duplicate('TRIP_TICKET_TAKEN', 'taken') }],
  );

describe('InMemoryCollection', () => {
  it('orders by createdAt, then id, both descending', () => {
    const rows = [
      { id: 'a', version: 0, createdAt: at },
      { id: 'c', version: 0, createdAt: at },
      { id: 'b', version: 0, createdAt: at },
      { id: 'b', version: 0, createdAt: at },
    ];
    expect([...rows].sort(newestFirst).map((r) => r.id)).toEqual(['c', 'b', 'b', 'a']);
  });

  it('refuses a duplicate id and an update of a missing row', async () => {
    const c = collection();
    await c.add({ id: 'a', version: 0, createdAt: at });
    await expect(c.add({ id: 'a', version: 0, createdAt: at })).rejects.toMatchObject({ code: 'DUPLICATE_ID' });
    await expect(c.update({ id: 'z', version: 0, createdAt: at })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('ignores unique keys that are absent and enforces present ones', async () => {
    const c = collection();
    await c.add({ id: 'a', version: 0, createdAt: at });
    await c.add({ id: 'b', version: 0, createdAt: at });
    await c.add({ id: 'c', version: 0, createdAt: at, tag: 't' });
    await expect(c.add({ id: 'd', version: 0, createdAt: at, tag: 't' })).rejects.toMatchObject({
      code: 'TRIP_TICKET_TAKEN',
    });
  });

  it('answers an unknown cursor, or the last row as cursor, with an empty page', async () => {
    const c = collection();
    await c.add({ id: 'a', version: 0, createdAt: at });
    expect(c.page(() => true, { limit: 5, after: 'nope' })).toEqual({ items: [], next: undefined });
    expect(c.page(() => true, { limit: 5, after: 'a' })).toEqual({ items: [], next: undefined });
  });
});

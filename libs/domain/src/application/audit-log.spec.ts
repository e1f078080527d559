import { T0 } from '../testing/fixtures';
import { auditEntriesFor, eventEntriesFor, SYSTEM_ACTOR } from './audit-log';

describe('audit entries', () => {
  const events = [
    { type: 'TransactionAnomaly', aggregateId: 'a', at: T0, data: { reason: 'amount_mismatch' } },
    { type: 'TransactionStateUnknown', aggregateId: 'a', at: T0 },
  ];

  it('keeps whole states before and after, for records whose state is their own', () => {
    expect(auditEntriesFor('vehicle', events, SYSTEM_ACTOR, { v: 1 }, { v: 2 })).toMatchObject([
      { action: 'TransactionAnomaly', before: { v: 1 }, after: { v: 2 } },
      { action: 'TransactionStateUnknown', before: { v: 1 }, after: { v: 2 } },
    ]);
  });

  it("keeps only each event's own data, for records that hold what outsiders sent", () => {
    expect(eventEntriesFor('transaction', events, SYSTEM_ACTOR)).toEqual([
      {
        entity: 'transaction',
        entityId: 'a',
        action: 'TransactionAnomaly',
        actor: SYSTEM_ACTOR,
        before: null,
        after: { reason: 'amount_mismatch' },
        at: T0,
      },
      {
        entity: 'transaction',
        entityId: 'a',
        action: 'TransactionStateUnknown',
        actor: SYSTEM_ACTOR,
        before: null,
        after: null,
        at: T0,
      },
    ]);
  });
});

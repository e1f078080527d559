import type { OpenBackend, RepositoryBackend } from './backend';
import { at, driver, hasher, idsFor, transaction, trip, USER } from './fixtures';
import { allChecksPassed, driverSummaryOf, Transaction, type DriverListFilter } from '../../src';
import { failureCode } from './support';

export function driverTripTransactionContract(name: string, open: OpenBackend): void {
  describe(`DriverRepository, TripRepository and TransactionRepository contract [${name}]`, () => {
    let b: RepositoryBackend;
    beforeEach(async () => {
      b = await open();
    });
    afterEach(async () => {
      await b.close();
    });

    it('stores a driver exactly (the activation key only as its hash) and finds it by email in any case', async () => {
      const ids = idsFor(11);
      const { driver: d, activationKey } = driver(ids, 1);
      expect((await b.drivers.add(d)).toState()).toEqual(d.toState());
      const [loaded, ...others] = await b.drivers.findByEmail('DRIVER1@example.COM');
      expect(others).toEqual([]);
      expect(loaded!.toState()).toEqual(d.toState());
      expect(JSON.stringify(loaded.toState())).not.toContain(`"${activationKey}"`);
      expect(await b.drivers.findByEmail('nobody@example.com')).toEqual([]);
      expect(await b.drivers.findById('65a0000000000000000000ff')).toBeUndefined();
    });

    it('keeps drivers awaiting activation with one email, but refuses a second activated one, whatever its case', async () => {
      const ids = idsFor(12);
      const first = driver(ids, 1);
      const second = driver(ids, 1, at(9));
      await b.drivers.add(first.driver);
      await b.drivers.add(second.driver);
      const third = driver(ids, 1, at(10));
      await b.drivers.add(third.driver);
      const activated = (await b.drivers.findById(second.driver.id))!;
      activated.activate(second.activationKey, at(10), hasher, 'contract');
      await b.drivers.update(activated);
      // The activated one first, then the others oldest first.
      const found = await b.drivers.findByEmail('Driver1@Example.com');
      expect(found.map((d) => d.id)).toEqual([second.driver.id, first.driver.id, third.driver.id]);
      const late = (await b.drivers.findById(first.driver.id))!;
      late.activate(first.activationKey, at(11), hasher, 'contract');
      expect(await failureCode(b.drivers.update(late))).toBe('DRIVER_EMAIL_TAKEN');
      expect((await b.drivers.findById(first.driver.id))!.verified).toBe(false);
      const another = driver(ids, 1, at(12));
      another.driver.activate(another.activationKey, at(12), hasher, 'contract');
      expect(await failureCode(b.drivers.add(another.driver))).toBe('DRIVER_EMAIL_TAKEN');
    });

    it('keeps every state change of a driver across a save', async () => {
      const ids = idsFor(13);
      const { driver: d, activationKey } = driver(ids, 1);
      await b.drivers.add(d);
      const loaded = (await b.drivers.findById(d.id))!;
      loaded.activate(activationKey, at(5), hasher, 'contract');
      loaded.approve(allChecksPassed(), USER, at(6));
      loaded.goOnline(at(7));
      loaded.setBusy(true, at(8));
      loaded.rate(4, at(9));
      const saved = await b.drivers.update(loaded);
      expect((await b.drivers.findById(d.id))!.toState()).toEqual(saved.toState());
      expect(saved.toState()).toMatchObject({
        verified: true,
        approved: true,
        online: true,
        busy: true,
        ratingTotal: 4,
        ratingCount: 1,
        version: 1,
      });
      saved.setBusy(false, at(10));
      saved.revokeApproval('complaint', USER, at(11));
      await b.drivers.update(saved);
      expect((await b.drivers.findById(d.id))!.toState()).toMatchObject({
        approved: false,
        online: false,
        revocation: { reason: 'complaint', revokedBy: USER, dateRevoked: at(11) },
        version: 2,
      });
    });

    it('filters drivers by approval and email, newest first, with paging', async () => {
      const ids = idsFor(14);
      for (let n = 1; n <= 4; n++) {
        const { driver: d } = driver(ids, n);
        if (n % 2 === 0) d.approve(allChecksPassed(), USER, at(20));
        await b.drivers.add(d);
      }
      const emails = async (filter: Parameters<typeof b.drivers.list>[0], limit = 10, after?: string) =>
        (await b.drivers.list(filter, { limit, after })).items.map((d) => d.toState().email);
      expect(await emails({})).toEqual([
        'driver4@example.com',
        'driver3@example.com',
        'driver2@example.com',
        'driver1@example.com',
      ]);
      expect(await emails({ approved: true })).toEqual(['driver4@example.com', 'driver2@example.com']);
      expect(await emails({ approved: false })).toEqual(['driver3@example.com', 'driver1@example.com']);
      expect(await emails({ email: 'DRIVER3@example.com' })).toEqual(['driver3@example.com']);
      const page = await b.drivers.list({}, { limit: 3 });
      expect(page.next).toBe(page.items[2].id);
      expect(page.total).toBeUndefined();
      expect(await emails({}, 3, page.next)).toEqual(['driver1@example.com']);
      // count: every match, on every page, the cursor notwithstanding.
      expect((await b.drivers.list({ approved: false }, { limit: 1, count: true })).total).toBe(2);
      expect((await b.drivers.list({}, { limit: 3, after: page.next, count: true })).total).toBe(4);
      expect((await b.drivers.list({ email: 'nobody@example.com' }, { limit: 3, count: true })).total).toBe(0);

      // Summaries: the same rows, pages and counts as the whole drivers, each its summary.
      for (const [filter, request] of [
        [{}, { limit: 10 }],
        [{ approved: true }, { limit: 1, count: true }],
        [{ email: 'DRIVER3@example.com' }, { limit: 10 }],
        [{}, { limit: 3, after: page.next }],
      ] as Array<[DriverListFilter, { limit: number; after?: string; count?: boolean }]>) {
        const whole = await b.drivers.list(filter, request);
        expect(whole.items.length).toBeGreaterThan(0);
        expect(await b.drivers.listSummaries(filter, request)).toEqual({
          ...whole,
          items: whole.items.map((d) => driverSummaryOf(d.toState())),
        });
      }
    });

    it('lists trips created in [from, to), newest first, and saves their life cycle', async () => {
      const ids = idsFor(15);
      const created = [at(0), at(60), at(120), at(180)];
      const trips = [];
      for (const [i, when] of created.entries()) trips.push(await b.trips.add(trip(ids, i, when)));
      const tickets = async (from: Date, to: Date) =>
        (await b.trips.listCreatedBetween({ from, to }, { limit: 10 })).items.map((t) => t.toState().ticketNumber);
      expect(await tickets(at(60), at(180))).toEqual(['TKT-2', 'TKT-1']);
      expect(await tickets(at(0), at(181))).toEqual(['TKT-3', 'TKT-2', 'TKT-1', 'TKT-0']);
      expect((await b.trips.listCreatedBetween({ from: at(60), to: at(181) }, { limit: 1, count: true })).total).toBe(
        3,
      );
      const t = (await b.trips.findById(trips[0].id))!;
      expect(t.toState()).toEqual(trips[0].toState());
      t.end({ finalDistance: 6.5, durationMinutes: 15, discount: 50, charges: 20 }, at(30));
      t.checkOut({ type: 'Point', coordinates: [-0.3, 5.6] }, at(31));
      t.settle(t.amountDue!, 'momo', at(32));
      t.refund(100, at(33));
      const saved = await b.trips.update(t);
      expect((await b.trips.findById(t.id))!.toState()).toEqual(saved.toState());
      expect(await failureCode(b.trips.add(trip(ids, 0, at(500))))).toBe('TRIP_TICKET_TAKEN');
    });

    it('keeps (merchant, reference) unique and finds a transaction by it', async () => {
      const ids = idsFor(16);
      const m1 = '65a0000000000000000000f1';
      const m2 = '65a0000000000000000000f2';
      await b.ensureMerchant(m1);
      await b.ensureMerchant(m2);
      const tx = await b.transactions.add(transaction(ids, m1, 'REF-1'));
      await b.transactions.add(transaction(ids, m2, 'REF-1'));
      expect(await failureCode(b.transactions.add(transaction(ids, m1, 'REF-1')))).toBe('TRANSACTION_REFERENCE_TAKEN');
      expect((await b.transactions.findByMerchantReference(m1, 'REF-1'))!.toState()).toEqual(tx.toState());
      expect(await b.transactions.findByMerchantReference(m1, 'REF-2')).toBeUndefined();
      expect((await b.transactions.findById(tx.id))!.id).toBe(tx.id);
    });

    it('frees a reference once its payment failed: a retry is another attempt, found by the reference over the failure', async () => {
      const ids = idsFor(17);
      const m1 = '65a0000000000000000000f1';
      await b.ensureMerchant(m1);
      const failed = (state: ReturnType<Transaction['toState']>) => Transaction.restore({ ...state, status: 'failed' });
      const first = await b.transactions.add(failed(transaction(ids, m1, 'REF-R').toState()));
      expect((await b.transactions.findByMerchantReference(m1, 'REF-R'))!.id).toBe(first.id);
      const retry = await b.transactions.add(transaction(ids, m1, 'REF-R', at(60)));
      expect((await b.transactions.findByMerchantReference(m1, 'REF-R'))!.id).toBe(retry.id);
      // Held again by the retry: a third attempt is refused while the retry has not failed.
      expect(await failureCode(b.transactions.add(transaction(ids, m1, 'REF-R', at(120))))).toBe(
        'TRANSACTION_REFERENCE_TAKEN',
      );
      // A failure after it (imported history) does not hide the attempt that holds the reference.
      await b.transactions.add(failed(transaction(ids, m1, 'REF-R', at(180)).toState()));
      expect((await b.transactions.findByMerchantReference(m1, 'REF-R'))!.id).toBe(retry.id);
    });

    it("lists a merchant's own transactions newest first, by state and creation time, with paging", async () => {
      const ids = idsFor(18);
      const m1 = '65a0000000000000000000f1';
      const m2 = '65a0000000000000000000f2';
      await b.ensureMerchant(m1);
      await b.ensureMerchant(m2);
      const t1 = await b.transactions.add(transaction(ids, m1, 'L-1', at(10)));
      const t2 = await b.transactions.add(transaction(ids, m1, 'L-2', at(20)));
      const t3 = await b.transactions.add(transaction(ids, m1, 'L-3', at(30)));
      await b.transactions.add(transaction(ids, m2, 'L-1', at(40)));
      const idsOf = (page: { items: Array<{ id: string }> }) => page.items.map((t) => t.id);
      expect((await b.transactions.listForMerchant(m1, { from: at(15) }, { limit: 1, count: true })).total).toBe(2);
      const first = await b.transactions.listForMerchant(m1, {}, { limit: 2 });
      expect(idsOf(first)).toEqual([t3.id, t2.id]);
      expect(idsOf(await b.transactions.listForMerchant(m1, {}, { limit: 2, after: first.next }))).toEqual([t1.id]);
      expect(idsOf(await b.transactions.listForMerchant(m1, { from: at(20), to: at(30) }, { limit: 10 }))).toEqual([
        t2.id,
      ]);
      expect(idsOf(await b.transactions.listForMerchant(m1, { status: t1.status }, { limit: 10 }))).toEqual([
        t3.id,
        t2.id,
        t1.id,
      ]);
      expect(idsOf(await b.transactions.listForMerchant(m1, { status: 'success' }, { limit: 10 }))).toEqual([]);
      expect(idsOf(await b.transactions.listForMerchant(m2, {}, { limit: 10 }))).toHaveLength(1);
    });

    it('saves callback outcomes, anomalies included', async () => {
      const ids = idsFor(17);
      const m = '65a0000000000000000000f1';
      await b.ensureMerchant(m);
      const old = await b.transactions.add(transaction(ids, m, 'OLD', at(0)));
      const flagged = await b.transactions.add(transaction(ids, m, 'FLAGGED', at(30)));
      const recent = await b.transactions.add(transaction(ids, m, 'RECENT', at(31)));
      const done = await b.transactions.add(transaction(ids, m, 'DONE', at(1)));
      const callback = (ref: string, code: string, amount = 25.5) => ({
        ResponseCode: code,
        Message: 'm',
        Data: {
          Amount: amount,
          Charges: 0,
          AmountAfterCharges: amount,
          AmountCharged: amount,
          Description: '',
          ClientReference: ref,
          TransactionId: 't',
          ExternalTransactionId: 'e',
          OrderId: 'o',
        },
      });
      flagged.applyCallback(callback(flagged.id, '0005'), at(32), true);
      await b.transactions.update(flagged);
      // The provider knows a payment by its platform-unique ClientReference, the transaction's id.
      done.applyCallback(callback(done.id, '0000'), at(33), true);
      done.applyCallback(callback(done.id, '2001'), at(34), true);
      const savedDone = await b.transactions.update(done);
      expect((await b.transactions.findById(done.id))!.toState()).toEqual(savedDone.toState());
      expect(savedDone.toState().anomalies).toHaveLength(1);
      expect((await b.transactions.findById(flagged.id))!.toState()).toMatchObject({
        status: 'pending',
        needsStatusCheck: true,
      });
      expect((await b.transactions.findById(recent.id))!.status).toBe('pending');
      expect((await b.transactions.findById(old.id))!.status).toBe('pending');
      // The backstop's scan: open transactions unchanged since a time, oldest first; final ones never.
      expect(await b.transactions.listOpenUnchangedSince(at(40), 10)).toEqual([old.id, recent.id, flagged.id]);
      expect(await b.transactions.listOpenUnchangedSince(at(31), 10)).toEqual([old.id]);
      expect(await b.transactions.listOpenUnchangedSince(at(40), 1)).toEqual([old.id]);
    });
  });
}

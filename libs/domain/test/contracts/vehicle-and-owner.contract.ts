import type { OpenBackend, RepositoryBackend } from './backend';
import { APPROVER, at, driver, hasher, idsFor, owner, USER, vehicle } from './fixtures';
import {
  allPassed,
  Station,
  TransportUnion,
  vehicleSummaryOf,
  type PageRequest,
  type VehicleListFilter,
  Vehicle,
  VehicleOwner,
} from '../../src';
import { failureCode } from './support';

export function vehicleAndOwnerContract(name: string, open: OpenBackend): void {
  describe(`VehicleOwnerRepository and VehicleRepository contract [${name}]`, () => {
    let b: RepositoryBackend;
    beforeEach(async () => {
      b = await open();
    });
    afterEach(async () => {
      await b.close();
    });

    it('stores and restores an owner exactly, and finds several by id', async () => {
      const ids = idsFor(1);
      const o = owner(ids, 1);
      const stored = await b.owners.add(o);
      expect(stored.toState()).toEqual(o.toState());
      expect((await b.owners.findById(o.id))?.toState()).toEqual(o.toState());
      expect(await b.owners.findById('65a0000000000000000000ff')).toBeUndefined();
      const other = await b.owners.add(owner(ids, 2));
      expect((await b.owners.findByIds([o.id, other.id, '65a0000000000000000000ff'])).map((x) => x.id).sort()).toEqual(
        [o.id, other.id].sort(),
      );
    });

    it('stores an owner kept from history without an e-mail, and finds it by name and phone only', async () => {
      const ids = idsFor(4);
      const { email: _none, ...byPhone } = owner(ids, 9).toState();
      const o = VehicleOwner.keepFromHistory(byPhone, ids, at(9));
      await b.owners.add(o);
      expect((await b.owners.findById(o.id))?.toState()).toEqual(o.toState());
      expect((await b.owners.findById(o.id))?.toState()).not.toHaveProperty('email');
      const found = async (q: string) => (await b.owners.search(q, { limit: 10 })).items.map((x) => x.id);
      expect(await found('owner 9')).toEqual([o.id]);
      expect(await found('0244000009')).toEqual([o.id]);
      expect(await found('example.com')).toEqual([]);
    });

    it('stores a checklist of an older version as it is, and lists it neither as passed nor as failed', async () => {
      const ids = idsFor(5);
      const o = await b.owners.add(owner(ids, 1));
      const { fireExtinguisher: _f, emergencySignals: _e, ...older } = allPassed();
      const kept = Vehicle.restore({
        ...vehicle(ids, o.id, 1).toState(),
        inspected: true,
        inspectionChecklist: older,
        inspectedBy: USER,
        dateInspected: at(200),
      });
      await b.vehicles.add(kept);
      const passed = vehicle(ids, o.id, 2);
      passed.inspect(allPassed(), USER, at(200));
      await b.vehicles.add(passed);
      expect((await b.vehicles.findById(kept.id))?.toState().inspectionChecklist).toEqual(older);
      const listed = async (inspection: 'passed' | 'failed') =>
        (await b.vehicles.list({ inspection }, { limit: 10 })).items.map((v) => v.id);
      expect(await listed('passed')).toEqual([passed.id]);
      expect(await listed('failed')).toEqual([]);
    });

    it('searches owners by part of name, email or phone in either spelling, case-insensitively', async () => {
      const ids = idsFor(2);
      for (let n = 1; n <= 3; n++) await b.owners.add(owner(ids, n));
      const names = async (q: string) => (await b.owners.search(q, { limit: 10 })).items.map((o) => o.toState().name);
      expect(await names('mENSAH')).toEqual(['Owner 3 Mensah', 'Owner 2 Mensah', 'Owner 1 Mensah']);
      expect(await names('OWNER2@')).toEqual(['Owner 2 Mensah']);
      expect(await names('0244000003')).toEqual(['Owner 3 Mensah']);
      expect(await names('+233244000001')).toEqual(['Owner 1 Mensah']);
      expect(await names('4000002')).toEqual(['Owner 2 Mensah']);
      expect(await names('nobody')).toEqual([]);
      expect(await names('%')).toEqual([]);
    });

    it('pages owners newest first with a cursor', async () => {
      const ids = idsFor(3);
      for (let n = 1; n <= 5; n++) await b.owners.add(owner(ids, n));
      expect((await b.owners.search('zzz-nobody', { limit: 2, count: true })).total).toBe(0);
      const first = await b.owners.list({ limit: 2 });
      expect(first.items.map((o) => o.toState().name)).toEqual(['Owner 5 Mensah', 'Owner 4 Mensah']);
      const second = await b.owners.list({ limit: 2, after: first.next });
      expect(second.items.map((o) => o.toState().name)).toEqual(['Owner 3 Mensah', 'Owner 2 Mensah']);
      const last = await b.owners.list({ limit: 2, after: second.next });
      expect(last.items.map((o) => o.toState().name)).toEqual(['Owner 1 Mensah']);
      expect(last.next).toBeUndefined();
    });

    it('updates with optimistic revisions: the stale writer gets CONCURRENT_UPDATE and nothing is written', async () => {
      const ids = idsFor(4);
      const o = await b.owners.add(owner(ids, 1));
      const copyA = (await b.owners.findById(o.id))!;
      const copyB = (await b.owners.findById(o.id))!;
      copyA.verify(at(10));
      const saved = await b.owners.update(copyA);
      expect(saved.version).toBe(1);
      copyB.verify(at(11));
      expect(await failureCode(b.owners.update(copyB))).toBe('CONCURRENT_UPDATE');
      expect((await b.owners.findById(o.id))!.toState()).toMatchObject({ version: 1, updatedAt: at(10) });
    });

    it('stores every vehicle field, absent ones stay absent, and a null station stays null', async () => {
      const ids = idsFor(5);
      const o = await b.owners.add(owner(ids, 1));
      const v = vehicle(ids, o.id, 1);
      const added = await b.vehicles.add(v);
      expect(added.toState()).toEqual(v.toState());
      const loaded = (await b.vehicles.findById(v.id))!;
      expect(loaded.toState()).toEqual(v.toState());
      expect(loaded.toState()).not.toHaveProperty('stationId');

      loaded.inspect(allPassed(), USER, at(100));
      loaded.approve(APPROVER, at(101));
      loaded.linkStation(null, at(102));
      const saved = await b.vehicles.update(loaded);
      expect(saved.toState()).toEqual({ ...loaded.toState(), version: 1 });
      const reloaded = (await b.vehicles.findById(v.id))!.toState();
      expect(reloaded.stationId).toBeNull();
      // A summary shows the same: the unlinked station as null, the fields it has, none it has not.
      const [summary] = (await b.vehicles.listSummaries({ ownerId: o.id }, { limit: 1 })).items;
      expect(summary).toEqual(vehicleSummaryOf(reloaded));
      expect(summary.stationId).toBeNull();
      expect(reloaded).toMatchObject({
        approved: true,
        inspectionChecklist: allPassed(),
        approvedBy: APPROVER,
        dateApproved: at(101),
        version: 1,
      });
    });

    it('refuses a second vehicle with the same registration number', async () => {
      const ids = idsFor(6);
      const o = await b.owners.add(owner(ids, 1));
      await b.vehicles.add(vehicle(ids, o.id, 1));
      expect(await failureCode(b.vehicles.add(vehicle(ids, o.id, 1, at(50))))).toBe('VEHICLE_REGISTRATION_TAKEN');
    });

    it('filters and pages vehicles newest first', async () => {
      const ids = idsFor(7);
      const o1 = await b.owners.add(owner(ids, 1));
      const o2 = await b.owners.add(owner(ids, 2));
      const d = driver(ids, 1).driver;
      d.activate('wrong!', at(1), hasher, 'contract');
      const storedDriver = await b.drivers.add(d);
      const union = await b.unions.add(
        TransportUnion.create(
          {
            name: 'GPRTU',
            digitalAddress: 'AK-100-2000',
            contactNumber: '0302000333',
            email: 'u@gprtu.org.gh',
            zones: [],
          },
          ids,
          at(0),
        ),
      );
      const station = await b.stations.add(
        Station.create(
          {
            name: 'Kejetia',
            transportUnions: [union.id],
            zones: [],
            contactNumber: 302000444,
            digitalAddress: 'AK-200-3000',
          },
          ids,
          at(0),
        ),
      );
      for (let n = 1; n <= 6; n++) {
        const v = vehicle(ids, n % 2 ? o1.id : o2.id, n);
        if (n === 4) {
          v.linkStation(station.id, at(202));
          v.linkTransportUnion(union.id, at(202));
        }
        if (n === 5) v.linkStation(null, at(202));
        // The oldest failed its brakes (with a defect note); the next two passed.
        if (n === 1) v.inspect({ ...allPassed(), brakes: false }, USER, at(200), { brakes: 'Front pads worn through' });
        else if (n <= 3) v.inspect(allPassed(), USER, at(200));
        if (n === 2) {
          v.approve(APPROVER, at(201));
          v.linkDriver({ id: storedDriver.id, approved: true, verified: true }, at(202));
        }
        await b.vehicles.add(v);
      }
      const regs = async (filter: Parameters<typeof b.vehicles.list>[0], limit = 10) =>
        (await b.vehicles.list(filter, { limit })).items.map((v) => v.toState().registrationNumber);
      expect(await regs({})).toEqual([
        'GR 1006-24',
        'GR 1005-24',
        'GR 1004-24',
        'GR 1003-24',
        'GR 1002-24',
        'GR 1001-24',
      ]);
      expect(await regs({ inspected: true })).toEqual(['GR 1003-24', 'GR 1002-24', 'GR 1001-24']);
      expect(await regs({ inspected: false })).toEqual(['GR 1006-24', 'GR 1005-24', 'GR 1004-24']);
      expect(await regs({ approved: true })).toEqual(['GR 1002-24']);
      expect(await regs({ inspection: 'failed' })).toEqual(['GR 1001-24']);
      expect(await regs({ inspection: 'passed' })).toEqual(['GR 1003-24', 'GR 1002-24']);
      expect(await regs({ inspection: 'passed', approved: false })).toEqual(['GR 1003-24']);
      expect(await regs({ inspection: 'failed', inspected: false })).toEqual([]);
      const [failed] = (await b.vehicles.list({ inspection: 'failed' }, { limit: 1 })).items;
      expect(failed.toState().inspectionDefects).toEqual({ brakes: 'Front pads worn through' });
      expect(await regs({ ownerId: o2.id })).toEqual(['GR 1006-24', 'GR 1004-24', 'GR 1002-24']);
      expect(await regs({ driverId: storedDriver.id })).toEqual(['GR 1002-24']);
      expect(await regs({ registrationNumber: 'GR 1005-24' })).toEqual(['GR 1005-24']);
      expect(await regs({ stationId: station.id })).toEqual(['GR 1004-24']);
      expect(await regs({ transportUnionId: union.id })).toEqual(['GR 1004-24']);
      expect(await regs({ transportUnionId: union.id, inspected: true })).toEqual([]);
      const counted = await b.vehicles.list({}, { limit: 1, count: true });
      expect(counted.total).toBeGreaterThan(1);
      expect(counted.items).toHaveLength(1);
      const page1 = await b.vehicles.list({}, { limit: 4 });
      const page2 = await b.vehicles.list({}, { limit: 4, after: page1.next });
      expect(page2.items.map((v) => v.toState().registrationNumber)).toEqual(['GR 1002-24', 'GR 1001-24']);
      expect(page2.next).toBeUndefined();

      // Summaries: the same rows, pages and counts as the whole vehicles, each its summary.
      const same = async (filter: VehicleListFilter, page: PageRequest) => {
        const whole = await b.vehicles.list(filter, page);
        const summaries = await b.vehicles.listSummaries(filter, page);
        expect(summaries).toEqual({ ...whole, items: whole.items.map((v) => vehicleSummaryOf(v.toState())) });
        return summaries;
      };
      for (const filter of [{}, { inspected: true }, { approved: true }, { ownerId: o2.id }] as VehicleListFilter[])
        expect((await same(filter, { limit: 10 })).items.length).toBeGreaterThan(0);
      expect((await same({ driverId: storedDriver.id }, { limit: 10 })).items[0]).toMatchObject({
        registrationNumber: 'GR 1002-24',
        inspected: true,
        approved: true,
      });
      expect((await same({}, { limit: 4, after: page1.next, count: true })).total).toBe(6);
      expect((await same({ registrationNumber: 'GR 9999-24' }, { limit: 4 })).items).toEqual([]);
    });

    it('lists vehicles whose certificates end on or before a date', async () => {
      const ids = idsFor(8);
      const o = await b.owners.add(owner(ids, 1));
      for (let n = 1; n <= 4; n++) await b.vehicles.add(vehicle(ids, o.id, n));
      // vehicle n's roadworthy certificate ends n+1 days after T0
      const ending = await b.vehicles.listCertificatesEndingBy(at(60 * 24 * 3), { limit: 10 });
      expect(ending.items.map((v) => v.toState().registrationNumber)).toEqual(['GR 1002-24', 'GR 1001-24']);
    });

    it('keeps the stale writer out when two updates race on one vehicle', async () => {
      const ids = idsFor(9);
      const o = await b.owners.add(owner(ids, 1));
      const v = await b.vehicles.add(vehicle(ids, o.id, 1));
      const writers = Array.from({ length: 5 }, async (_, i) => {
        const copy = (await b.vehicles.findById(v.id))!;
        copy.inspect(allPassed(), USER, at(10 + i));
        return b.vehicles.update(copy).then(
          () => 'ok',
          (e: { code?: string; message?: string }) => e.code ?? e.message,
        );
      });
      const outcomes = await Promise.all(writers);
      // Every writer read revision 0 before any wrote only where writers truly race; the serialised backends may let
      // later writers read the first one's result. Either way no write is lost silently: winners + conflicts = writers,
      // and the stored revision counts exactly the winners.
      const wins = outcomes.filter((x) => x === 'ok').length;
      expect(outcomes.filter((x) => x !== 'ok' && x !== 'CONCURRENT_UPDATE')).toEqual([]);
      expect(wins).toBeGreaterThanOrEqual(1);
      expect((await b.vehicles.findById(v.id))!.version).toBe(wins);
    });
  });
}

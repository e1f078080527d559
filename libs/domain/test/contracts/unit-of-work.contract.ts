import { Region, Station, TransportUnion, type Repositories, type UnitOfWork } from '../../src';
import { at, driver, idsFor, owner, transaction, trip, vehicle } from './fixtures';

/** A unit of work and the stores outside it, on one backend (in memory, Prisma on PostgreSQL or on PGlite). */
export interface UnitOfWorkBackend {
  readonly uow: UnitOfWork;
  /** The same data outside any unit of work. */
  readonly stores: Repositories;
  /** Makes a merchant with this id exist (a principal outside the domain, which transactions reference). */
  ensureMerchant(id: string): Promise<void>;
  close(): Promise<void>;
}

export type OpenUnitOfWorkBackend = () => Promise<UnitOfWorkBackend>;

const MERCHANT = '65a0000000000000000000f7';

/**
 * What a unit of work promises about reading: every list, search and batch lookup a use case makes inside it runs in
 * the unit's transaction, so it sees what the unit wrote before it, and what a failed unit wrote is listed nowhere
 * afterwards. The fakes and the database adapters keep the same promise.
 */
export function unitOfWorkContract(name: string, open: OpenUnitOfWorkBackend): void {
  describe(`UnitOfWork contract [${name}]`, () => {
    let b: UnitOfWorkBackend;
    beforeEach(async () => {
      b = await open();
      await b.ensureMerchant(MERCHANT);
    });
    afterEach(async () => {
      await b.close();
    });

    /** Every kind of list read a use case can make, each narrowed to what `write` below made. */
    const listed = async (r: Repositories, ids: { owner: string; union: string; station: string; region: string }) => ({
      vehicles: (await r.vehicles.list({ ownerId: ids.owner }, { limit: 10, count: true })).total,
      summaries: (await r.vehicles.listSummaries({ ownerId: ids.owner }, { limit: 10 })).items.length,
      certificates: (await r.vehicles.listCertificatesEndingBy(at(60 * 24 * 1000), { limit: 10 })).items.length,
      owners: (await r.owners.list({ limit: 10 })).items.map((o) => o.id),
      ownerSearch: (await r.owners.search('mensah', { limit: 10, count: true })).total,
      ownersByIds: (await r.owners.findByIds([ids.owner])).length,
      drivers: (await r.drivers.list({}, { limit: 10 })).items.length,
      driverSummaries: (await r.drivers.listSummaries({}, { limit: 10, count: true })).total,
      regions: (await r.regions.list({ limit: 10 })).items.map((x) => x.id),
      stations: (await r.stations.list({ limit: 10 })).items.map((x) => x.id),
      stationsByIds: (await r.stations.findByIds([ids.station])).length,
      unions: (await r.unions.list({ limit: 10 })).items.map((x) => x.id),
      unionsByIds: (await r.unions.findByIds([ids.union])).length,
      trips: (await r.trips.listCreatedBetween({ from: at(0), to: at(100) }, { limit: 10, count: true })).total,
      transactions: (await r.transactions.listForMerchant(MERCHANT, {}, { limit: 10 })).items.length,
      byReference: (await r.transactions.findByMerchantReference(MERCHANT, 'REF-UOW'))?.toState().reference,
    });

    async function write(r: Repositories) {
      const ids = idsFor(71);
      const region = await r.regions.add(
        Region.create({ name: 'Oti', country: '65a0000000000000000000c0' }, ids, at(1)),
      );
      const union = await r.unions.add(
        TransportUnion.create(
          {
            name: 'GPRTU Dambai',
            digitalAddress: 'OT-100-1000',
            contactNumber: '0302000111',
            email: 'u@x.org',
            zones: [],
          },
          ids,
          at(2),
        ),
      );
      const station = await r.stations.add(
        Station.create(
          {
            name: 'Dambai',
            transportUnions: [union.id],
            zones: [],
            contactNumber: 302000111,
            digitalAddress: 'OT-200-2000',
          },
          ids,
          at(3),
        ),
      );
      const o = await r.owners.add(owner(ids, 4));
      await r.vehicles.add(vehicle(ids, o.id, 5));
      await r.drivers.add(driver(ids, 6).driver);
      await r.trips.add(trip(ids, 7, at(7)));
      await r.transactions.add(transaction(ids, MERCHANT, 'REF-UOW', at(8)));
      return { owner: o.id, union: union.id, station: station.id, region: region.id };
    }

    const everything = (ids: { owner: string; union: string; station: string; region: string }) => ({
      vehicles: 1,
      summaries: 1,
      certificates: 1,
      owners: [ids.owner],
      ownerSearch: 1,
      ownersByIds: 1,
      drivers: 1,
      driverSummaries: 1,
      regions: [ids.region],
      stations: [ids.station],
      stationsByIds: 1,
      unions: [ids.union],
      unionsByIds: 1,
      trips: 1,
      transactions: 1,
      byReference: 'REF-UOW',
    });

    it("runs a unit's lists, searches and batch lookups inside it: they see what it wrote before them", async () => {
      const { ids, inside } = await b.uow.run(async (ctx) => {
        const ids = await write(ctx);
        return { ids, inside: await listed(ctx, ids) };
      });
      expect(inside).toEqual(everything(ids));
      expect(await listed(b.stores, ids)).toEqual(everything(ids));
    });

    it('lists nothing a failed unit wrote, once it has thrown, though it listed those rows inside', async () => {
      let written: Awaited<ReturnType<typeof write>> | undefined;
      const failing = b.uow.run(async (ctx) => {
        written = await write(ctx);
        expect(await listed(ctx, written)).toEqual(everything(written));
        throw new Error('the unit fails after listing');
      });
      await expect(failing).rejects.toThrow('the unit fails after listing');
      expect(await listed(b.stores, written!)).toEqual({
        vehicles: 0,
        summaries: 0,
        certificates: 0,
        owners: [],
        ownerSearch: 0,
        ownersByIds: 0,
        drivers: 0,
        driverSummaries: 0,
        regions: [],
        stations: [],
        stationsByIds: 0,
        unions: [],
        unionsByIds: 0,
        trips: 0,
        transactions: 0,
        byReference: undefined,
      });
    });
  });
}

import { Assembly, Driver, Region, Trip, Vehicle, VehicleOwner } from '../../src';
import type { OpenBackend, RepositoryBackend } from './backend';
import { at, driver, idsFor, owner, trip, vehicle } from './fixtures';

/** Owners, vehicles and drivers keep their assembly, and every list an assembly user reads narrows to one. */
export function jurisdictionContract(name: string, open: OpenBackend): void {
  describe(`Assembly jurisdiction of owners, vehicles and drivers [${name}]`, () => {
    let b: RepositoryBackend;
    beforeEach(async () => {
      b = await open();
    });
    afterEach(async () => {
      await b.close();
    });

    const placed = <T extends { toState(): object }>(
      record: T,
      assemblyId: string | undefined,
      restore: (s: never) => T,
    ) => (assemblyId === undefined ? record : restore({ ...record.toState(), assemblyId } as never));

    it('keeps each record’s assembly across saves and transfers, and filters lists, searches and compliance by it', async () => {
      const ids = idsFor(31);
      const region = await b.regions.add(
        Region.create({ name: 'Greater Accra', country: '65a0000000000000000000c0' }, ids, at(0)),
      );
      const assembly = (n: string, code: string) =>
        b.assemblies.add(
          Assembly.create({ name: n, regionId: region.id, digitalAddress: code, type: 'municipal' }, ids, at(0)),
        );
      const accra = (await assembly('Accra Metropolitan Assembly', 'GA-001-0001')).id;
      const tema = (await assembly('Tema Metropolitan Assembly', 'GT-001-0001')).id;
      const where = [accra, tema, undefined];

      for (let n = 1; n <= 3; n++) {
        await b.trips.add(placed(trip(ids, n, at(n)), where[n - 1], Trip.restore));
        const o = await b.owners.add(placed(owner(ids, n), where[n - 1], VehicleOwner.restore));
        expect(o.toState().assemblyId).toBe(where[n - 1]);
        await b.vehicles.add(placed(vehicle(ids, o.id, n), where[n - 1], Vehicle.restore));
        await b.drivers.add(placed(driver(ids, n).driver, where[n - 1], Driver.restore));
      }
      const names = (page: { items: { toState(): { name: string } }[] }) => page.items.map((x) => x.toState().name);
      expect(names(await b.owners.list({ limit: 10 }, accra))).toEqual(['Owner 1 Mensah']);
      expect(names(await b.owners.list({ limit: 10 }))).toHaveLength(3);
      const tickets = async (assemblyId?: string) =>
        (await b.trips.listCreatedBetween({ from: at(0), to: at(10) }, { limit: 10 }, assemblyId)).items.map(
          (t) => t.toState().ticketNumber,
        );
      expect(await tickets(tema)).toEqual(['TKT-2']);
      expect(await tickets()).toEqual(['TKT-3', 'TKT-2', 'TKT-1']);
      expect(names(await b.owners.search('mensah', { limit: 10 }, tema))).toEqual(['Owner 2 Mensah']);
      expect(names(await b.drivers.list({ assemblyId: tema }, { limit: 10 }))).toEqual(['Driver 2']);
      const regs = (page: { items: Vehicle[] }) => page.items.map((v) => v.toState().registrationNumber);
      expect(regs(await b.vehicles.list({ assemblyId: accra }, { limit: 10 }))).toEqual(['GR 1001-24']);
      expect(regs(await b.vehicles.listCertificatesEndingBy(at(60 * 24 * 10), { limit: 10 }, tema))).toEqual([
        'GR 1002-24',
      ]);
      expect(regs(await b.vehicles.listCertificatesEndingBy(at(60 * 24 * 10), { limit: 10 }))).toHaveLength(3);

      // The unassigned vehicle moves to Tema: stored, and found there from then on.
      const unassigned = (await b.vehicles.list({}, { limit: 1 })).items[0];
      expect(unassigned.toState().assemblyId).toBeUndefined();
      unassigned.transferTo(tema, at(100));
      await b.vehicles.update(unassigned);
      expect((await b.vehicles.findById(unassigned.id))!.toState().assemblyId).toBe(tema);
      expect(regs(await b.vehicles.list({ assemblyId: tema }, { limit: 10 }))).toEqual(['GR 1003-24', 'GR 1002-24']);

      const kwame = (await b.owners.list({ limit: 1 }, accra)).items[0];
      kwame.transferTo(tema, at(101));
      await b.owners.update(kwame);
      expect(names(await b.owners.list({ limit: 10 }, accra))).toEqual([]);
      const first = (await b.drivers.list({ assemblyId: accra }, { limit: 1 })).items[0];
      first.transferTo(tema, at(102));
      await b.drivers.update(first);
      expect(names(await b.drivers.list({ assemblyId: tema }, { limit: 10 }))).toEqual(['Driver 2', 'Driver 1']);
    });
  });
}

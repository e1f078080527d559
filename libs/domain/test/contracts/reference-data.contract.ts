import { Assembly, AssemblyUser, Region, Station, TransportUnion } from '../../src';
import type { OpenBackend, RepositoryBackend } from './backend';
import { at, idsFor } from './fixtures';
import { failureCode } from './support';

export function referenceDataContract(name: string, open: OpenBackend): void {
  describe(`Region, Assembly, AssemblyUser, Station and TransportUnion repositories contract [${name}]`, () => {
    let b: RepositoryBackend;
    beforeEach(async () => {
      b = await open();
    });
    afterEach(async () => {
      await b.close();
    });

    it('stores regions, assemblies and users exactly, lists them newest first, and keeps user emails unique', async () => {
      const ids = idsFor(21);
      const country = '65a0000000000000000000c0';
      const region = await b.regions.add(Region.create({ name: 'Ashanti', country }, ids, at(0)));
      expect((await b.regions.findById(region.id))!.toState()).toEqual(region.toState());
      expect((await b.regions.findByIds([region.id])).map((r) => r.id)).toEqual([region.id]);
      expect(await failureCode(b.regions.add(Region.create({ name: 'Ashanti', country }, ids, at(1))))).toBe(
        'REGION_TAKEN',
      );
      const volta = await b.regions.add(Region.create({ name: 'Volta', country }, ids, at(2)));
      const firstRegions = await b.regions.list({ limit: 1 });
      expect(firstRegions.items.map((r) => r.id)).toEqual([volta.id]);
      expect((await b.regions.list({ limit: 1, after: firstRegions.next })).items.map((r) => r.id)).toEqual([
        region.id,
      ]);
      expect((await b.regions.list({ limit: 5, after: ids.next() })).items).toEqual([]);

      const a1 = await b.assemblies.add(
        Assembly.create(
          {
            name: 'Kumasi Metropolitan Assembly',
            regionId: region.id,
            digitalAddress: 'ak-039-5028',
            type: 'metropolitan',
          },
          ids,
          at(1),
        ),
      );
      const a2 = await b.assemblies.add(
        Assembly.create(
          { name: 'Ejisu Municipal Assembly', regionId: region.id, digitalAddress: 'AE-001-0001', type: 'municipal' },
          ids,
          at(2),
        ),
      );
      expect((await b.assemblies.findById(a1.id))!.toState()).toEqual(a1.toState());
      expect((await b.assemblies.list({ limit: 10 })).items.map((a) => a.id)).toEqual([a2.id, a1.id]);

      const user = (n: number, assemblyId: string) =>
        AssemblyUser.create(
          {
            assemblyId,
            name: `User ${n}`,
            email: `user${n}@kma.gov.gh`,
            phone: `02440000${10 + n}`,
            role: 'inspector',
          },
          ids,
          at(10 + n),
        );
      const u1 = await b.assemblyUsers.add(user(1, a1.id));
      const u2 = await b.assemblyUsers.add(user(2, a2.id));
      expect((await b.assemblyUsers.findById(u1.id))!.toState()).toEqual(u1.toState());
      expect((await b.assemblyUsers.list({}, { limit: 10 })).items.map((u) => u.id)).toEqual([u2.id, u1.id]);
      expect((await b.assemblyUsers.list({ assemblyId: a1.id }, { limit: 10 })).items.map((u) => u.id)).toEqual([
        u1.id,
      ]);
      expect(await failureCode(b.assemblyUsers.add(user(1, a2.id)))).toBe('ASSEMBLY_USER_EMAIL_TAKEN');

      // Found by phone; disabled and enabled again through optimistic updates.
      expect((await b.assemblyUsers.findByPhone(u2.toState().phone))?.id).toBe(u2.id);
      expect(await b.assemblyUsers.findByPhone('+233200000000')).toBeUndefined();
      const loaded = (await b.assemblyUsers.findById(u1.id))!;
      loaded.disable(at(30));
      const disabled = await b.assemblyUsers.update(loaded);
      expect(disabled.version).toBe(1);
      expect((await b.assemblyUsers.findById(u1.id))!.toState()).toEqual(disabled.toState());
      expect(disabled.toState().disabledAt).toEqual(at(30));
      expect(await failureCode(b.assemblyUsers.update(loaded))).toBe('CONCURRENT_UPDATE');
      disabled.enable(at(31));
      const enabled = await b.assemblyUsers.update(disabled);
      expect((await b.assemblyUsers.findById(u1.id))!.toState()).toEqual(enabled.toState());
      expect(enabled.toState()).not.toHaveProperty('disabledAt');
    });

    it('stores stations and transport unions exactly', async () => {
      const ids = idsFor(22);
      const zone = '65a0000000000000000000b1';
      const union = await b.unions.add(
        TransportUnion.create(
          {
            name: 'GPRTU Kumasi',
            digitalAddress: 'AK-100-2000',
            contactNumber: '0302000333',
            email: 'kumasi@gprtu.org.gh',
            zones: [zone],
            parentUnionId: '65a0000000000000000000b2',
          },
          ids,
          at(0),
        ),
      );
      expect((await b.unions.findById(union.id))!.toState()).toEqual(union.toState());
      const station = await b.stations.add(
        Station.create(
          {
            name: 'Kejetia',
            transportUnions: [union.id],
            zones: [zone],
            contactNumber: 302000444,
            digitalAddress: 'AK-200-3000',
          },
          ids,
          at(1),
        ),
      );
      expect((await b.stations.findById(station.id))!.toState()).toEqual(station.toState());
      expect((await b.stations.findByIds([station.id, zone])).map((s) => s.id)).toEqual([station.id]);
      expect((await b.unions.findByIds([union.id])).map((u) => u.id)).toEqual([union.id]);
      // Lists, newest first, keyset-paged.
      const second = await b.stations.add(
        Station.create(
          {
            name: 'Kwame Nkrumah Circle',
            transportUnions: [],
            zones: [],
            contactNumber: 302000555,
            digitalAddress: 'GA-200-3001',
          },
          ids,
          at(2),
        ),
      );
      const stations = await b.stations.list({ limit: 1 });
      expect(stations.items.map((s) => s.toState())).toEqual([second.toState()]);
      expect((await b.stations.list({ limit: 1, after: stations.next })).items.map((s) => s.id)).toEqual([station.id]);
      expect((await b.unions.list({ limit: 10 })).items.map((u) => u.toState())).toEqual([union.toState()]);
    });
  });
}

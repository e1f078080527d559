import type { OpenBackend, RepositoryBackend } from './backend';
import { APPROVER, at, idsFor, owner, USER, vehicle } from './fixtures';
import { allPassed, Assembly, decideAppeal, lodgeAppeal, Region, type InspectionRecord } from '../../src';
import { failureCode } from './support';

export function inspectionHistoryContract(name: string, open: OpenBackend): void {
  describe(`inspection history and assembly inspection settings contract [${name}]`, () => {
    let b: RepositoryBackend;
    beforeEach(async () => {
      b = await open();
    });
    afterEach(async () => {
      await b.close();
    });

    it('keeps a graded vehicle as it was, each inspection in its history, and each appeal once', async () => {
      const ids = idsFor(61);
      const o = await b.owners.add(owner(ids, 1));
      const v = await b.vehicles.add(vehicle(ids, o.id, 1));
      const other = await b.vehicles.add(vehicle(ids, o.id, 2));
      const first = ids.next();
      v.inspect({ ...allPassed(), brakes: false, spareTire: false }, USER, at(10), undefined, undefined, {
        grades: { spareTire: 'minor' },
        advisories: { headlights: 'Lens cloudy' },
        inspectionId: first,
        idempotencyKey: 'inspection-key-1',
      });
      const saved = await b.vehicles.update(v);
      await b.vehicles.addInspection(v.recordedInspection()!);
      expect((await b.vehicles.findById(v.id))!.toState()).toEqual(saved.toState());
      expect(saved.toState()).toMatchObject({
        inspectionGrades: { brakes: 'major', spareTire: 'minor' },
        inspectionId: first,
        reinspectionDueBy: new Date(at(10).getTime() + 14 * 86_400_000),
      });
      expect(await b.vehicles.findInspection(v.id, first)).toEqual(v.recordedInspection());
      expect(await b.vehicles.findInspection(other.id, first)).toBeUndefined();

      // Listed by the window: open now and ending by the day asked.
      const ending = async (days: number) =>
        (
          await b.vehicles.list({ reinspectionEnding: { from: at(20), by: at(20 + days * 1440) } }, { limit: 10 })
        ).items.map((x) => x.id);
      expect(await ending(14)).toEqual([v.id]);
      expect(await ending(1)).toEqual([]);

      const again = (await b.vehicles.findById(v.id))!;
      const second = ids.next();
      again.reinspect({ brakes: true, spareTire: true }, APPROVER, at(30), undefined, undefined, {
        inspectionId: second,
      });
      await b.vehicles.update(again);
      await b.vehicles.addInspection(again.recordedInspection()!);
      const history = await b.vehicles.listInspections(v.id);
      expect(history.map((r) => [r.id, r.kind, r.reinspectionOf ?? null, r.outcome])).toEqual([
        [second, 'reinspection', first, 'passed'],
        [first, 'inspection', null, 'failed'],
      ]);
      expect(await b.vehicles.listInspections(other.id)).toEqual([]);

      const record = history[1] as InspectionRecord;
      const lodged = lodgeAppeal(record, { lodgedBy: USER, grounds: 'The brakes were fine' }, at(40), 15);
      await b.vehicles.saveAppeal(lodged);
      expect(await failureCode(b.vehicles.saveAppeal(lodged))).toBe('CONCURRENT_UPDATE');
      expect(await failureCode(b.vehicles.saveAppeal(record))).toBe('CONCURRENT_UPDATE');
      const decided = decideAppeal(lodged, { decidedBy: APPROVER, decision: 'upheld' }, at(50));
      expect(await failureCode(b.vehicles.saveAppeal({ ...decided, id: second }))).toBe('CONCURRENT_UPDATE');
      await b.vehicles.saveAppeal(decided);
      expect(await failureCode(b.vehicles.saveAppeal(decided))).toBe('CONCURRENT_UPDATE');
      expect(await b.vehicles.findInspection(v.id, first)).toEqual(decided);
    });

    it("keeps an assembly's days to fix and to appeal, the defaults until set", async () => {
      const ids = idsFor(62);
      const region = await b.regions.add(
        Region.create({ name: 'Ashanti', country: '65a0000000000000000000c0' }, ids, at(0)),
      );
      const assembly = await b.assemblies.add(
        Assembly.create(
          {
            name: 'Kumasi Metropolitan Assembly',
            regionId: region.id,
            digitalAddress: 'AK-001-0001',
            type: 'metropolitan',
          },
          ids,
          at(0),
        ),
      );
      const defaults = { daysToFix: 14, appealDays: 15, photosRequired: true };
      expect(await b.assemblies.inspectionSettings(assembly.id)).toEqual(defaults);
      expect(await b.assemblies.inspectionSettings(undefined)).toEqual(defaults);
      expect(
        await b.assemblies.setInspectionSettings(assembly.id, { daysToFix: 13, appealDays: 21, photosRequired: false }),
      ).toBe(true);
      expect(await b.assemblies.inspectionSettings(assembly.id)).toEqual({
        daysToFix: 13,
        appealDays: 21,
        photosRequired: false,
      });
      expect(await b.assemblies.setInspectionSettings('65a0000000000000000000ff', defaults)).toBe(false);
      expect(await b.assemblies.inspectionSettings('65a0000000000000000000ff')).toEqual(defaults);
    });
  });
}

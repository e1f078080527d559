import request from 'supertest';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// count=true on the lists: X-Total-Count is every record the filters match, on every page; absent otherwise.
describeOnEachTier('list counts', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });

  /** Every record of a list, following the Link header, and the X-Total-Count each page carried. */
  async function walk(path: string, key: string) {
    const seen: unknown[] = [];
    const totals = new Set<string | undefined>();
    let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=2&count=true`;
    while (next) {
      const res: request.Response = await http().get(next).set('Authorization', key).expect(200);
      seen.push(...(Array.isArray(res.body) ? res.body : res.body.payload));
      totals.add(res.headers['x-total-count']);
      next = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    }
    return { seen: seen.length, totals: [...totals] };
  }

  it('counts every match on every page, whatever the cursor, for each kind of list', async () => {
    for (const [path, key] of [
      ['/drivers/all?approved=false', f.keys.admin],
      ['/drivers/all', f.keys.assembly],
      ['/vehicles/all?inspected=true', f.keys.admin],
      ['/vehicles/all?inspected=true&approved=false', f.keys.assembly],
      ['/vehicles/owner/all', f.keys.admin],
      ['/vehicles/owner/search?query=owner', f.keys.admin],
      ['/trips/intracity/date?startDate=2026-09-01&endDate=2026-10-31', f.keys.admin],
      ['/vehicles/compliance?within=366', f.keys.assembly],
      ['/assembly/all', f.keys.admin],
      ['/assembly/users', f.keys.admin],
      ['/assembly/regions/all', f.keys.admin],
      ['/payment/transactions', f.keys.merchantA],
      ['/audit/entries', f.keys.admin],
    ] as const) {
      const { seen, totals } = await walk(path, key);
      expect({ path, totals }).toEqual({ path, totals: [String(seen)] });
    }
  });

  it("serves an assembly's work queues: vehicles awaiting inspection and awaiting approval, with their counts", async () => {
    for (const [query, inspected, approved] of [
      ['inspected=false', false, false],
      ['inspected=true&approved=false', true, false],
    ] as const) {
      const res = await http()
        .get(`/vehicles/all?${query}&count=true&limit=500`)
        .set('Authorization', f.keys.assembly)
        .expect(200);
      expect(res.body.length).toBeGreaterThan(0);
      expect(
        res.body.every(
          (v: { inspected: boolean; approved: boolean }) => v.inspected === inspected && v.approved === approved,
        ),
      ).toBe(true);
      expect(res.headers['x-total-count']).toBe(String(res.body.length));
    }
    await http().get('/vehicles/all?approved=maybe').expect(400);
  });

  it("splits inspected vehicles by their last inspection's outcome: the approval queue holds only passed ones", async () => {
    const ids = async (query: string) => {
      const res = await http().get(`/vehicles/all?${query}&limit=500&count=true`).set('Authorization', f.keys.admin);
      expect(res.status).toBe(200);
      expect(res.headers['x-total-count']).toBe(String(res.body.length));
      return (res.body as Array<{ _id: string }>).map((v) => v._id).sort();
    };
    const waiting = await ids('inspected=true&approved=false');
    expect(waiting.length).toBeGreaterThanOrEqual(3);
    // Two of the vehicles awaiting approval failed their brakes at their last inspection.
    const failed = waiting.slice(0, 2);
    for (const id of failed) {
      const row = await running.database.prisma.vehicle.findUniqueOrThrow({ where: { id } });
      await running.database.prisma.vehicle.update({
        where: { id },
        data: { inspectionChecklist: { ...(row.inspectionChecklist as object), brakes: false } },
      });
    }
    expect(await ids('inspection=failed')).toEqual(failed);
    expect(await ids('inspection=passed&approved=false')).toEqual(waiting.slice(2));
    const inspected = await ids('inspected=true');
    expect(await ids('inspection=passed')).toEqual(inspected.filter((id) => !failed.includes(id)));
    // Uninspected vehicles have no outcome at all.
    expect(await ids('inspected=false&inspection=passed')).toEqual([]);
    const bad = await http().get('/vehicles/all?inspection=maybe').expect(400);
    expect(bad.body.detail).toMatch(/inspection must be passed or failed/);
  });

  it('sends no count unless asked, and refuses anything but true or false', async () => {
    const plain = await http().get('/drivers/all?limit=1').set('Authorization', f.keys.admin).expect(200);
    expect(plain.headers['x-total-count']).toBeUndefined();
    const off = await http().get('/drivers/all?limit=1&count=false').set('Authorization', f.keys.admin).expect(200);
    expect(off.headers['x-total-count']).toBeUndefined();
    await http().get('/drivers/all?count=yes').set('Authorization', f.keys.admin).expect(400);
    // Within an assembly's jurisdiction: the count is of what that key may see.
    const other = await http().get('/drivers/all?count=true').set('Authorization', f.keys.otherAssembly).expect(200);
    expect(other.headers['x-total-count']).toBe(String(other.body.payload.length));
  });
});

import { ADMIN, fakePorts, INSPECTOR, OTHER_ASSEMBLY, STAFF_ASSEMBLY } from '../core/testing/fixtures';
import { referenceDataOnFakes } from './reference-data.testing';

const COUNTRY = '65a00000000000000000c0c0';

function setup() {
  const p = fakePorts();
  return { ...p, reference: referenceDataOnFakes(p) };
}

async function withAssembly(s: ReturnType<typeof setup>) {
  const region = await s.reference.addRegion({ name: 'Ashanti', country: COUNTRY }, ADMIN);
  const assembly = await s.reference.addAssembly(
    { name: 'Kumasi Metropolitan Assembly', regionId: region._id, digitalAddress: 'AK-039-5028', type: 'metropolitan' },
    ADMIN,
  );
  return { region, assembly };
}

/** A person has one account: every user made here has a phone of their own. */
let phones = 0;
const user = (assemblyId: string, email = 'abena.mensah@ama.gov.gh', role = 'inspector') => ({
  assemblyId,
  name: 'Abena Mensah',
  email,
  phone: `0244${String(100_000 + phones++)}`,
  role,
});

describe('ReferenceDataService on fakes', () => {
  it('adds a region and an assembly with its region embedded, each audited once', async () => {
    const s = setup();
    const { region, assembly } = await withAssembly(s);
    expect(region).toMatchObject({ name: 'Ashanti', country: COUNTRY, __v: 0 });
    expect(assembly).toMatchObject({
      name: 'Kumasi Metropolitan Assembly',
      region: { _id: region._id, name: 'Ashanti' },
    });
    expect(await s.reference.region(region._id)).toEqual(region);
    expect(await s.reference.assembly(assembly._id)).toEqual(assembly);
    expect(s.uow.audit.entries.map((e) => e.action)).toEqual(['regionCreated', 'assemblyCreated']);
  });

  it('refuses a duplicate region, an assembly in an unknown region (REGION_NOT_FOUND) and unknown ids', async () => {
    const s = setup();
    await withAssembly(s);
    await expect(s.reference.addRegion({ name: 'Ashanti', country: COUNTRY }, ADMIN)).rejects.toMatchObject({
      code: 'REGION_TAKEN',
      kind: 'conflict',
    });
    await expect(
      s.reference.addAssembly(
        { name: 'X', regionId: '65a0000000000000000000ff', digitalAddress: 'AK-039-5028', type: 'district' },
        ADMIN,
      ),
    ).rejects.toMatchObject({ code: 'REGION_NOT_FOUND', kind: 'rule' });
    await expect(s.reference.region('65a0000000000000000000ff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.reference.assembly('65a0000000000000000000ff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(s.uow.audit.entries).toHaveLength(2);
  });

  it('lists assemblies with their regions, newest first and paged', async () => {
    const s = setup();
    const { region, assembly } = await withAssembly(s);
    s.clock.advance(1000);
    const second = await s.reference.addAssembly(
      { name: 'Ejisu Municipal Assembly', regionId: region._id, digitalAddress: 'AE-001-0001', type: 'municipal' },
      ADMIN,
    );
    const page = await s.reference.listAssemblies({ limit: 1 });
    expect(page.items.map((a) => a._id)).toEqual([second._id]);
    expect(page.next).toBe(second._id);
    // Then this one, and the fakes' two, registered a day before.
    expect((await s.reference.listAssemblies({ limit: 5, after: page.next })).items.map((a) => a._id)).toEqual([
      assembly._id,
      OTHER_ASSEMBLY,
      STAFF_ASSEMBLY,
    ]);
  });

  it('adds assembly users: admins anywhere, assembly users only to their own assembly (OTHER_ASSEMBLY)', async () => {
    const s = setup();
    const { region, assembly } = await withAssembly(s);
    const other = await s.reference.addAssembly(
      { name: 'Other', regionId: region._id, digitalAddress: 'AK-039-5029', type: 'district' },
      ADMIN,
    );
    const first = await s.reference.addAssemblyUser(user(assembly._id, undefined, 'admin'), ADMIN);
    expect(first).toMatchObject({
      assembly: assembly._id,
      email: 'abena.mensah@ama.gov.gh',
      phone: expect.stringMatching(/^\+2332441\d{5}$/),
    });
    // Managing users is an assembly admin's duty: an inspector may not.
    await expect(s.reference.addAssemblyUser(user(assembly._id, 'w@ama.gov.gh'), INSPECTOR)).rejects.toMatchObject({
      code: 'DUTY_NOT_ALLOWED',
      kind: 'forbidden',
    });
    const colleague = await s.reference.addAssemblyUser(user(assembly._id, 'kwame@ama.gov.gh'), {
      role: 'assembly',
      id: first._id,
    });
    expect(colleague.assembly).toBe(assembly._id);
    await expect(
      s.reference.addAssemblyUser(user(other._id, 'x@other.gov.gh'), { role: 'assembly', id: first._id }),
    ).rejects.toMatchObject({ code: 'OTHER_ASSEMBLY' });
    await expect(
      s.reference.addAssemblyUser(user(assembly._id, 'y@ama.gov.gh'), {
        role: 'assembly',
        id: '65a0000000000000000000ff',
      }),
    ).rejects.toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
    await expect(
      s.reference.addAssemblyUser(user('65a0000000000000000000ff', 'z@ama.gov.gh'), ADMIN),
    ).rejects.toMatchObject({ code: 'ASSEMBLY_NOT_FOUND' });
    await expect(s.reference.addAssemblyUser(user(assembly._id), ADMIN)).rejects.toMatchObject({
      code: 'ASSEMBLY_USER_EMAIL_TAKEN',
    });
    // One person, one account: the first user's phone cannot open a second one, in any assembly.
    await expect(
      s.reference.addAssemblyUser({ ...user(other._id, 'again@other.gov.gh'), phone: first.phone }, ADMIN),
    ).rejects.toMatchObject({ code: 'ASSEMBLY_USER_PHONE_TAKEN', kind: 'conflict' });
    expect(await s.reference.assemblyUser(first._id, ADMIN)).toEqual(first);
    await expect(s.reference.assemblyUser('65a0000000000000000000ff', ADMIN)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Staff read their own assembly's staff only: another assembly's user answers like a missing one.
    const colleagueActor = { role: 'assembly' as const, id: colleague._id };
    expect(await s.reference.assemblyUser(first._id, colleagueActor)).toEqual(first);
    const stranger = await s.reference.addAssemblyUser(user(other._id, 'stranger@other.gov.gh'), ADMIN);
    await expect(s.reference.assemblyUser(stranger._id, colleagueActor)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      s.reference.assemblyUser(first._id, { role: 'assembly', id: '65a0000000000000000000ff' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists assembly users: every one for admins, their own assembly for an assembly user, none for an unknown one', async () => {
    const s = setup();
    const { region, assembly } = await withAssembly(s);
    const other = await s.reference.addAssembly(
      { name: 'Other', regionId: region._id, digitalAddress: 'AK-039-5029', type: 'district' },
      ADMIN,
    );
    const mine = await s.reference.addAssemblyUser(user(assembly._id), ADMIN);
    await s.reference.addAssemblyUser(user(other._id, 'x@other.gov.gh'), ADMIN);
    // Two here, and the fakes' inspector, approver and outsider.
    expect((await s.reference.listAssemblyUsers(ADMIN, { limit: 10 })).items).toHaveLength(5);
    expect(
      (await s.reference.listAssemblyUsers({ role: 'assembly', id: mine._id }, { limit: 10 })).items.map((u) => u._id),
    ).toEqual([mine._id]);
    expect(
      await s.reference.listAssemblyUsers({ role: 'assembly', id: '65a0000000000000000000ff' }, { limit: 10 }),
    ).toEqual({ items: [] });
  });

  it('adds unions (a branch needs an existing parent) and stations (every union must exist)', async () => {
    const s = setup();
    const parent = await s.reference.addUnion(
      {
        name: 'GPRTU',
        digitalAddress: 'GA-183-8164',
        contactNumber: '0302000333',
        email: 'hq@gprtu.org.gh',
        zones: [],
      },
      ADMIN,
    );
    const branch = await s.reference.addUnion(
      {
        name: 'GPRTU Accra',
        parentUnionId: parent._id,
        digitalAddress: 'GA-183-8165',
        contactNumber: '0302000334',
        email: 'accra@gprtu.org.gh',
        zones: [],
      },
      ADMIN,
    );
    expect(branch).toMatchObject({ transportUnion: parent._id, status: 'active' });
    await expect(
      s.reference.addUnion(
        {
          name: 'Orphan',
          parentUnionId: '65a0000000000000000000ff',
          digitalAddress: 'GA-183-8166',
          contactNumber: '0302000335',
          email: 'o@gprtu.org.gh',
          zones: [],
        },
        ADMIN,
      ),
    ).rejects.toMatchObject({ code: 'TRANSPORT_UNION_NOT_FOUND' });
    const station = await s.reference.addStation(
      {
        name: 'Kaneshie',
        transportUnions: [parent._id, branch._id],
        zones: [],
        contactNumber: 302000444,
        digitalAddress: 'GA-222-1010',
      },
      ADMIN,
    );
    expect(station).toMatchObject({ transportUnions: [parent._id, branch._id], __v: 0 });
    await expect(
      s.reference.addStation(
        {
          name: 'Nowhere',
          transportUnions: ['65a0000000000000000000ff'],
          zones: [],
          contactNumber: 302000444,
          digitalAddress: 'GA-222-1011',
        },
        ADMIN,
      ),
    ).rejects.toMatchObject({ code: 'TRANSPORT_UNION_NOT_FOUND' });
    expect(await s.reference.station(station._id)).toEqual(station);
    expect(await s.reference.union(branch._id)).toEqual(branch);
    await expect(s.reference.station('65a0000000000000000000ff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.reference.union('65a0000000000000000000ff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

import { ports, T0 } from '../testing/fixtures';
import { Station } from '../station/station';
import { TransportUnion } from '../transport-union/transport-union';
import { Assembly } from './assembly';
import { AssemblyUser } from './assembly-user';
import { Region } from './region';

const ID = '65a000000000000000000009';

describe('reference data', () => {
  it('creates a region and an assembly of a known type with a GhanaPostGPS address', () => {
    const r = Region.create({ name: 'Ashanti', country: ID }, ports().ids, T0);
    expect(Region.restore(r.toState()).toState()).toEqual(r.toState());
    const a = Assembly.create(
      { name: 'Kumasi Metropolitan Assembly', regionId: r.id, digitalAddress: 'ak-039-5028', type: 'metropolitan' },
      ports().ids,
      T0,
    );
    expect(a.toState()).toMatchObject({ regionId: r.id, digitalAddress: 'AK-039-5028', type: 'metropolitan' });
    expect(Assembly.restore(a.toState()).id).toBe(a.id);
    expect(() =>
      Assembly.create({ name: 'X', regionId: r.id, digitalAddress: 'AK-039-5028', type: 'village' }, ports().ids, T0),
    ).toThrow(/type/);
  });

  it('creates an assembly user with a role', () => {
    const u = AssemblyUser.create(
      { assemblyId: ID, name: 'Abena', email: 'ABENA@ama.gov.gh', phone: '0244000111', role: 'approver' },
      ports().ids,
      T0,
    );
    expect(u.toState()).toMatchObject({
      email: 'abena@ama.gov.gh',
      phone: '+233244000111',
      role: 'approver',
      assemblyId: ID,
    });
    expect(u.assemblyId).toBe(ID);
    expect(AssemblyUser.restore(u.toState()).id).toBe(u.id);
    expect(() =>
      AssemblyUser.create(
        { assemblyId: ID, name: 'A', email: 'a@b.gh', phone: '0244000111', role: 'king' },
        ports().ids,
        T0,
      ),
    ).toThrow(/role/);
  });

  it('keeps the language an assembly user is added with (any letter case), English when none, and refuses one the service does not speak', () => {
    const make = (language?: string) =>
      AssemblyUser.create(
        { assemblyId: ID, name: 'Esi', email: 'esi@ama.gov.gh', phone: '0244000555', role: 'inspector', language },
        ports().ids,
        T0,
      );
    expect(make(' EE ').toState().language).toBe('ee');
    expect(make().toState()).not.toHaveProperty('language');
    expect(() => make('fr')).toThrow(expect.objectContaining({ code: 'INVALID_LANGUAGE', field: 'language' }));
  });

  it('makes an enforcer of the task force (its assembly), or a nationwide police officer only when the national admin creates one', () => {
    const CREATOR = '65a000000000000000000011';
    const make = (role: string, nationwide?: boolean, createdBy?: string) =>
      AssemblyUser.create(
        { assemblyId: ID, name: 'Kofi', email: 'kofi@police.gov.gh', phone: '0244000333', role, nationwide },
        ports().ids,
        T0,
        createdBy,
      );
    const taskForce = make('enforcer', false, CREATOR);
    expect(taskForce.toState()).not.toHaveProperty('nationwide');
    expect(taskForce.nationwide).toBe(false);
    expect(taskForce.awaitingConfirmation).toBe(false);
    const police = make('enforcer', true);
    expect(police.toState()).toMatchObject({ role: 'enforcer', nationwide: true });
    expect(police.nationwide).toBe(true);
    expect(() => make('inspector', true)).toThrow(/Only an enforcer/);
    expect(() => make('enforcer', true, CREATOR)).toThrow(/national admin/);
  });

  it('makes an approver or admin an assembly admin creates wait for a second person; an inspector, and the national admin, not', () => {
    const CREATOR = '65a000000000000000000011';
    const SECOND = '65a000000000000000000012';
    const make = (role: string, createdBy?: string) =>
      AssemblyUser.create(
        { assemblyId: ID, name: 'Yaw', email: `${role}@ama.gov.gh`, phone: '0244000222', role },
        ports().ids,
        T0,
        createdBy,
      );
    expect(make('approver', CREATOR).toState()).toMatchObject({ awaitingConfirmation: true, createdBy: CREATOR });
    expect(make('admin', CREATOR).awaitingConfirmation).toBe(true);
    expect(make('inspector', CREATOR).toState()).toEqual(expect.objectContaining({ createdBy: CREATOR }));
    expect(make('inspector', CREATOR).awaitingConfirmation).toBe(false);
    expect(make('approver').toState()).not.toHaveProperty('createdBy');
    expect(make('approver').awaitingConfirmation).toBe(false);
    expect(() => make('approver', 'someone')).toThrow(/createdBy/);

    const approver = make('approver', CREATOR);
    const later = new Date(T0.getTime() + 60_000);
    for (const by of [CREATOR, approver.id])
      expect(() => approver.confirm(by, later)).toThrow(
        expect.objectContaining({ code: 'ASSEMBLY_USER_CONFIRMER_IS_CREATOR', kind: 'rule' }),
      );
    expect(approver.awaitingConfirmation).toBe(true);
    expect(() => approver.confirm('nobody', later)).toThrow(/confirmedBy/);
    expect(approver.confirm(SECOND, later)).toBe(true);
    expect(approver.toState()).toMatchObject({ confirmedBy: SECOND, updatedAt: later });
    expect(approver.toState()).not.toHaveProperty('awaitingConfirmation');
    // Confirming again, or an account that never awaited it, changes nothing.
    expect(approver.confirm(CREATOR, new Date(later.getTime() + 1))).toBe(false);
    expect(approver.toState().updatedAt).toEqual(later);
  });

  it('disables and enables an assembly user, each a no-op when already so', () => {
    const u = AssemblyUser.create(
      { assemblyId: ID, name: 'Abena', email: 'abena@ama.gov.gh', phone: '0244000111', role: 'admin' },
      ports().ids,
      T0,
    );
    expect(u.disabled).toBe(false);
    expect(u.version).toBe(0);
    const later = new Date(T0.getTime() + 60_000);
    u.disable(later);
    expect(u.toState()).toMatchObject({ disabledAt: later, updatedAt: later });
    u.disable(new Date(later.getTime() + 60_000));
    expect(u.toState().disabledAt).toEqual(later);
    expect(u.disabled).toBe(true);
    const again = new Date(later.getTime() + 120_000);
    u.enable(again);
    expect(u.disabled).toBe(false);
    expect(u.toState()).not.toHaveProperty('disabledAt');
    expect(u.toState().updatedAt).toEqual(again);
    u.enable(new Date(again.getTime() + 1));
    expect(u.toState().updatedAt).toEqual(again);
  });

  it('creates a station with a numeric contact and deduplicated id lists', () => {
    const s = Station.create(
      {
        name: 'Kaneshie',
        transportUnions: [ID, ID],
        zones: [],
        contactNumber: 302000444,
        digitalAddress: 'GA-222-1010',
      },
      ports().ids,
      T0,
    );
    expect(s.toState()).toMatchObject({ transportUnions: [ID], zones: [], contactNumber: 302000444 });
    expect(Station.restore(s.toState()).id).toBe(s.id);
    for (const contactNumber of [12, 1.5, 1e13]) {
      expect(() =>
        Station.create(
          { name: 'K', transportUnions: [], zones: [], contactNumber, digitalAddress: 'GA-222-1010' },
          ports().ids,
          T0,
        ),
      ).toThrow(/contactNumber/);
    }
  });

  it('creates a transport union, active unless told otherwise, optionally a branch of another', () => {
    const base = {
      name: 'GPRTU',
      digitalAddress: 'GA-183-8164',
      contactNumber: '0302000333',
      email: 'accra@gprtu.org.gh',
      zones: [ID],
    };
    const u = TransportUnion.create(base, ports().ids, T0);
    expect(u.toState()).toMatchObject({ status: 'active', contactNumber: '+233302000333' });
    expect(u.toState()).not.toHaveProperty('parentUnionId');
    const branch = TransportUnion.create({ ...base, status: 'suspended', parentUnionId: u.id }, ports().ids, T0);
    expect(branch.toState()).toMatchObject({ status: 'suspended', parentUnionId: u.id });
    expect(TransportUnion.restore(branch.toState()).id).toBe(branch.id);
  });
});

import {
  Assembly,
  AssemblyUser,
  DomainError,
  Region,
  Station,
  TransportUnion,
  VehicleOwner,
  type IdGenerator,
  type VehicleOwnerRegistration,
} from '@transport/domain';
import { auditEntriesFor, type Actor } from './audit-log';
import { changeAggregate, type UseCaseDeps } from './change-aggregate';
import type { WorkContext } from './unit-of-work';

type Deps = UseCaseDeps & { ids: IdGenerator };

/** Creates one record and its audit entry in one transaction. */
async function create<T extends { id: string; toState(): object }>(deps: Deps, entity: string, actor: Actor, make: (context: WorkContext, at: Date) => Promise<T>): Promise<T> {
  return deps.uow.run(async (context) => {
    const at = deps.clock.now();
    const saved = await make(context, at);
    await context.audit.append(auditEntriesFor(entity, [{ type: `${entity}Created`, aggregateId: saved.id, at }], actor, null, saved.toState()));
    return saved;
  });
}

export const addOwner = (deps: Deps, input: VehicleOwnerRegistration, actor: Actor) =>
  create(deps, 'owner', actor, (c, at) => c.owners.add(VehicleOwner.register(input, deps.ids, at)));

export async function verifyOwner(deps: UseCaseDeps, ownerId: string, actor: Actor, expectedVersion?: number): Promise<VehicleOwner> {
  const spec = { entity: 'owner', store: (c: WorkContext) => c.owners, id: ownerId, actor, expectedVersion, action: 'OwnerVerified' };
  return (await changeAggregate(deps, spec, (o, at) => o.verify(at))).saved;
}

export const addRegion = (deps: Deps, input: { name: string; country: string }, actor: Actor) =>
  create(deps, 'region', actor, (c, at) => c.regions.add(Region.create(input, deps.ids, at)));

export const addAssembly = (deps: Deps, input: { name: string; regionId: string; digitalAddress: string; type: string }, actor: Actor) =>
  create(deps, 'assembly', actor, async (c, at) => {
    const assembly = Assembly.create(input, deps.ids, at);
    if (!(await c.regions.findById(assembly.toState().regionId))) throw new DomainError('REGION_NOT_FOUND', `region ${input.regionId} names no record`, 'rule', 'region');
    return c.assemblies.add(assembly);
  });

/**
 * Admins add users to any assembly; an assembly user (acting as `actor`) only to its own, which is checked here
 * against the stored user, not taken from the request.
 */
export const addAssemblyUser = (deps: Deps, input: { assemblyId: string; name: string; email: string; phone: string; role: string }, actor: Actor) =>
  create(deps, 'assemblyUser', actor, async (c, at) => {
    const user = AssemblyUser.create(input, deps.ids, at);
    if (!(await c.assemblies.findById(user.assemblyId))) throw new DomainError('ASSEMBLY_NOT_FOUND', `assembly ${input.assemblyId} names no record`, 'rule', 'assembly');
    if (actor.role === 'assembly') {
      const self = await c.assemblyUsers.findById(actor.id);
      if (!self || self.assemblyId !== user.assemblyId) {
        throw new DomainError('OTHER_ASSEMBLY', 'Assembly users may add users to their own assembly only', 'rule', 'assembly');
      }
    }
    return c.assemblyUsers.add(user);
  });

export const addStation = (deps: Deps, input: { name: string; transportUnions: string[]; zones: string[]; contactNumber: number; digitalAddress: string }, actor: Actor) =>
  create(deps, 'station', actor, async (c, at) => {
    const station = Station.create(input, deps.ids, at);
    const unions = await c.unions.findByIds(station.toState().transportUnions);
    if (unions.length !== station.toState().transportUnions.length) throw new DomainError('TRANSPORT_UNION_NOT_FOUND', 'transportUnions names a union that does not exist', 'rule', 'transportUnions');
    return c.stations.add(station);
  });

export const addTransportUnion = (deps: Deps, input: { name: string; status?: string; parentUnionId?: string; digitalAddress: string; contactNumber: string; email: string; zones: string[] }, actor: Actor) =>
  create(deps, 'transportUnion', actor, async (c, at) => {
    const union = TransportUnion.create(input, deps.ids, at);
    if (input.parentUnionId && !(await c.unions.findById(input.parentUnionId))) throw new DomainError('TRANSPORT_UNION_NOT_FOUND', 'transportUnion names no union', 'rule', 'transportUnion');
    return c.unions.add(union);
  });

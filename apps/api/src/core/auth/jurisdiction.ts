import { jurisdictionOf, placeNewRecord, ReferenceErrors, type Actor, type WorkContext } from '@transport/domain';
import { changeAggregate, type ChangeSpec, type UseCaseDeps } from '../change-aggregate';

/**
 * The assembly a new record belongs to (the domain's placement rule), checked to exist when the caller named one
 * (422 ASSEMBLY_NOT_FOUND), so a bad id never reaches the database's foreign key.
 */
export async function placeNew(
  context: Pick<WorkContext, 'assemblies'>,
  actor: Actor,
  requested: string | undefined,
  inherited?: string,
): Promise<string | undefined> {
  const assemblyId = placeNewRecord(jurisdictionOf(actor), requested, inherited);
  if (requested !== undefined && !(await context.assemblies.findById(requested))) {
    throw ReferenceErrors.missing('assembly', requested, 'assembly');
  }
  return assemblyId;
}

interface Transferable {
  readonly id: string;
  readonly version: number;
  toState(): object;
  transferTo(assemblyId: string, at: Date): void;
}

/** An admin's move of a record to another, existing assembly: one audited change, like any other. */
export async function transferRecord<A extends Transferable>(
  deps: UseCaseDeps,
  spec: ChangeSpec<A>,
  assemblyId: string,
): Promise<A> {
  const { saved } = await changeAggregate(deps, spec, async (record, at, context) => {
    if (!(await context.assemblies.findById(assemblyId))) {
      throw ReferenceErrors.missing('assembly', assemblyId, 'assembly');
    }
    record.transferTo(assemblyId, at);
  });
  return saved;
}

import { assertDuty, DomainError, type Actor, type AssemblyUserRepository, type Duty } from '@transport/domain';

/**
 * An assembly key acts for a stored assembly user: its duty is checked against that user's role (the domain's
 * DUTIES), never against anything in the request. Other roles are outside assembly duties (their routes say who may
 * call them). Answers the acting user, for assembly actors.
 */
export async function assertAssemblyDuty(
  users: Pick<AssemblyUserRepository, 'findById'>,
  actor: Actor,
  duty: Duty,
): Promise<void> {
  if (actor.role !== 'assembly') return;
  const user = await users.findById(actor.id);
  if (!user) throw new DomainError('DUTY_NOT_ALLOWED', 'The assembly user of this key no longer exists', 'role');
  assertDuty(user.toState(), duty);
}

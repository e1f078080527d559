import { ANONYMOUS_ACTOR, type Actor } from '@transport/domain';

/** `platform`: the ride-hailing app's own back end, which reports driver status and records trips. */
export const ROLES = ['admin', 'assembly', 'merchant', 'platform'] as const;
export type Role = (typeof ROLES)[number];

/** Who a valid API key belongs to. */
export interface Principal {
  keyId: string;
  role: Role;
  /** The admin, assembly user or merchant the key was issued to. */
  principalId: string;
  /** For assembly keys: the assembly of the key's user, read at each authentication (their jurisdiction). */
  assemblyId?: string;
  /** Set when a person signed in to the dashboard (a session cookie) rather than a key: every change must carry its CSRF token. */
  session?: { id: string; csrfToken: string };
}

export const actorOf = (p: Principal): Actor =>
  p.assemblyId === undefined
    ? { role: p.role, id: p.principalId }
    : { role: p.role, id: p.principalId, assemblyId: p.assemblyId };

/** The actor of a route open to callers without a key: the key's principal, or the anonymous actor. */
export const actorOrAnonymous = (p: Principal | undefined): Actor => (p ? actorOf(p) : ANONYMOUS_ACTOR);

import type { Actor } from '@transport/domain';

/** `platform`: the ride-hailing app's own back end, which reports driver status and records trips. */
export const ROLES = ['admin', 'assembly', 'merchant', 'platform'] as const;
export type Role = (typeof ROLES)[number];

/** Who a valid API key belongs to. */
export interface Principal {
  keyId: string;
  role: Role;
  /** The admin, assembly user or merchant the key was issued to. */
  principalId: string;
}

export const actorOf = (p: Principal): Actor => ({ role: p.role, id: p.principalId });

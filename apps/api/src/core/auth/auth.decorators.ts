import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Principal, Role } from './principal';

export const ROLES_KEY = 'transport:roles';
export const OPTIONAL_AUTH_KEY = 'transport:optional-auth';

/** The roles allowed to call an operation. Without it (and without @OptionalAuth) an operation is public. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** Anonymous callers allowed, but a credential, when sent, must be valid and is used (e.g. to show more fields). */
export const OptionalAuth = () => SetMetadata(OPTIONAL_AUTH_KEY, true);

export interface AuthenticatedRequest {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
});

import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Principal, Role } from './principal';

export const ROLES_KEY = 'transport:roles';
export const OPTIONAL_AUTH_KEY = 'transport:optional-auth';
export const PUBLIC_KEY = 'transport:public';

/**
 * Every route declares who may call it, with exactly one of these: @Roles, @OptionalAuth or @Public. A route with
 * none is refused (403) and stops the app at start (core/auth/access-rules.ts): closed by default.
 */

/** The roles allowed to call an operation. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** Anyone may call it, with no key (health, the provider's callback, what a passenger checks). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** Anonymous callers allowed, but a credential, when sent, must be valid and is used (e.g. to show more fields). */
export const OptionalAuth = () => SetMetadata(OPTIONAL_AUTH_KEY, true);

export interface AuthenticatedRequest {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
});

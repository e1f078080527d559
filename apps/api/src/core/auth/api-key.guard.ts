import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config';
import type { Authenticator, RateLimits } from '../ports';
import { API_KEY_AUTHENTICATOR, APP_CONFIG, RATE_LIMITS, SESSION_AUTHENTICATOR } from '../tokens';
import { AppError } from '../errors';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { OPTIONAL_AUTH_KEY, PUBLIC_KEY, ROLES_KEY, type AuthenticatedRequest } from './auth.decorators';
import type { Principal, Role } from './principal';
import { parse as parseCookies } from 'cookie';
import { sameSecret } from '../platform/secrets';
import { sessionCookieName } from './session-cookie';

/** Who may call a route, as its decorators say (`@Roles`, `@OptionalAuth`, `@Public`). */
interface AccessRule {
  roles: Role[] | undefined;
  optional: boolean;
  open: boolean;
}

/** Methods that change nothing: the only ones a session may use without its CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(presented: string | string[] | undefined, expected: string): boolean {
  return typeof presented === 'string' && sameSecret(presented, expected);
}

export function unauthorized(detail: string): AppError {
  return new AppError('UNAUTHORIZED', detail);
}

/** The key as the interface sends it (the bare key in Authorization), or as `Bearer <key>`. */
export function presentedKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  return (bearer ? bearer[1] : value).trim() || undefined;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(API_KEY_AUTHENTICATOR) private readonly keys: Authenticator,
    @Inject(SESSION_AUTHENTICATOR) private readonly sessions: Authenticator,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The global request limit, shared by every instance: per API key once the key is known, per client address for
   * calls without one and for every unknown key (so guessing keys is bounded too). Open routes (health probes, the
   * provider's callbacks, which have their own per-transaction limit) are not counted.
   */
  private async countRequest(request: FastifyRequest, principal: { keyId: string } | undefined): Promise<void> {
    if (principal) {
      if (this.config.rateLimit.perKeyPerMinute > 0) await this.limits.consume('requests-per-key', principal.keyId);
    } else if (this.config.rateLimit.perAddressPerMinute > 0) {
      await this.limits.consume('requests-per-address', request.ip ?? request.socket.remoteAddress ?? 'unknown');
    }
  }

  /** Each route's rule, read from its decorators once: they do not change after start (three lookups a request). */
  private readonly rules = new WeakMap<object, AccessRule>();

  private ruleOf(context: ExecutionContext): AccessRule {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (!rule) {
      const targets = [handler, context.getClass()];
      rule = {
        roles: this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, targets),
        optional: this.reflector.getAllAndOverride<boolean | undefined>(OPTIONAL_AUTH_KEY, targets) ?? false,
        open: this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_KEY, targets) ?? false,
      };
      this.rules.set(handler, rule);
    }
    return rule;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { roles, optional, open } = this.ruleOf(context);
    if (!roles && !optional) {
      if (open) return true;
      // Closed by default: the app refuses to start with such a route, and would refuse the call anyway.
      throw new AppError('FORBIDDEN', 'This operation declares no access rule, so nobody may call it');
    }

    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const key = presentedKey(request.headers.authorization);
    let principal: Principal | undefined;
    if (key) {
      principal = await this.keys.authenticate(key);
      await this.countRequest(request, principal);
      if (!principal) throw unauthorized('The API key is unknown or revoked');
    } else {
      // No key: a person signed in to the dashboard, by the session cookie (a key, when sent, always wins).
      // Only the configured name: with Secure cookies, a bare `tp_session` (which any subdomain could set) is ignored.
      const name = sessionCookieName(this.config.people.cookieSecure);
      const cookie = request.headers.cookie ? parseCookies(request.headers.cookie)[name] : undefined;
      if (cookie) principal = await this.sessions.authenticate(cookie);
      await this.countRequest(request, principal);
      if (!principal) {
        if (cookie) throw unauthorized('Your session has ended; sign in again');
        if (optional) return true;
        throw unauthorized('This operation needs an API key in the Authorization header');
      }
      const csrf = principal.session?.csrfToken;
      if (!SAFE_METHODS.has(request.method) && (!csrf || !sameToken(request.headers['x-csrf-token'], csrf))) {
        throw new AppError(
          'CSRF_REJECTED',
          "A change made with a session must carry the session's X-CSRF-Token header",
        );
      }
    }
    if (roles && !roles.includes(principal.role)) {
      throw new AppError(
        'FORBIDDEN',
        `This operation is for ${roles.join(' or ')} keys; this key is a ${principal.role} key`,
      );
    }
    // Set once the caller may go on: the answer's view and its no-store (core/http/no-store.ts) follow from it.
    request.principal = principal;
    return true;
  }
}

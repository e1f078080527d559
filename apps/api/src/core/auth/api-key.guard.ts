import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppError } from '../errors';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiKeyStore } from '../../persistence/prisma-api-key.store';
import { OPTIONAL_AUTH_KEY, PUBLIC_KEY, ROLES_KEY, type AuthenticatedRequest } from './auth.decorators';
import type { Role } from './principal';

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
    private readonly keys: ApiKeyStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const optional = this.reflector.getAllAndOverride<boolean | undefined>(OPTIONAL_AUTH_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!roles && !optional) {
      const open = this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_KEY, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (open) return true;
      // Closed by default: the app refuses to start with such a route, and would refuse the call anyway.
      throw new AppError('FORBIDDEN', 'This operation declares no access rule, so nobody may call it');
    }

    const request = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const key = presentedKey(request.headers.authorization);
    if (!key) {
      if (optional) return true;
      throw unauthorized('This operation needs an API key in the Authorization header');
    }
    const principal = await this.keys.authenticate(key);
    if (!principal) throw unauthorized('The API key is unknown or revoked');
    request.principal = principal;
    if (roles && !roles.includes(principal.role)) {
      throw new AppError(
        'FORBIDDEN',
        `This operation is for ${roles.join(' or ')} keys; this key is a ${principal.role} key`,
      );
    }
    return true;
  }
}

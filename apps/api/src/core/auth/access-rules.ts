import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { OPTIONAL_AUTH_KEY, PUBLIC_KEY, ROLES_KEY } from './auth.decorators';
import type { Role } from './principal';

/** Who may call a route, as declared on it (or on its controller). */
export type AccessRule =
  { kind: 'roles'; roles: readonly Role[] } | { kind: 'optional' } | { kind: 'public' } | { kind: 'undeclared' };

export interface RouteAccess {
  method: string;
  path: string;
  controller: string;
  handler: string;
  rule: AccessRule;
}

/** Metadata from the handler first, then its controller (as the guard reads it). */
function declared<T>(key: string, handler: object, controller: object): T | undefined {
  return (
    (Reflect.getMetadata(key, handler) as T | undefined) ?? (Reflect.getMetadata(key, controller) as T | undefined)
  );
}

/** The rule of one handler: what the guard enforces. */
export function accessRuleOf(handler: object, controller: object): AccessRule {
  const roles = declared<Role[]>(ROLES_KEY, handler, controller);
  if (roles) return { kind: 'roles', roles };
  if (declared<boolean>(OPTIONAL_AUTH_KEY, handler, controller)) return { kind: 'optional' };
  if (declared<boolean>(PUBLIC_KEY, handler, controller)) return { kind: 'public' };
  return { kind: 'undeclared' };
}

const join = (...parts: string[]) =>
  `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

/** Every route of these controllers with its access rule, in declaration order. */
export function routeTable(controllers: ReadonlyArray<Type>): RouteAccess[] {
  const routes: RouteAccess[] = [];
  for (const controller of controllers) {
    const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) continue;
      routes.push({
        method: RequestMethod[method],
        path: join(base, path),
        controller: controller.name,
        handler: name,
        rule: accessRuleOf(handler, controller),
      });
    }
  }
  return routes;
}

/** Stops the app when a route declares no access rule: a forgotten decorator must not open a route to everyone. */
export function assertEveryRouteDeclared(controllers: ReadonlyArray<Type>): void {
  const missing = routeTable(controllers).filter((r) => r.rule.kind === 'undeclared');
  if (missing.length > 0) {
    throw new Error(
      `Routes without an access rule (@Roles, @OptionalAuth or @Public): ${missing
        .map((r) => `${r.method} ${r.path} (${r.controller}.${r.handler})`)
        .join(', ')}`,
    );
  }
}

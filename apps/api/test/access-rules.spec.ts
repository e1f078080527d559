import { Controller, Get, type ExecutionContext, type Type } from '@nestjs/common';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { ApiKeyGuard } from '../src/core/auth/api-key.guard';
import type { Authenticator, RateLimits } from '../src/core/ports';
import type { AppConfig } from '../src/config';
import request from 'supertest';
import { assertEveryRouteDeclared, routeTable } from '../src/core/auth/access-rules';
import { Roles } from '../src/core/auth/auth.decorators';
import { controllersOfApp } from './access-rules.support';
import { openTierStore, startTestApp } from './support/test-app';

/**
 * Every route and who may call it: a role list, `optional` (anonymous allowed, a key when sent is used) or `public`.
 * A new route must be added here with its rule, so the rule is a decision someone made, not a forgotten decorator.
 */
const ROUTES: Array<[method: string, path: string, rule: string]> = [
  ['GET', '/vehicles/all', 'optional'],
  ['POST', '/vehicles/add', 'admin assembly'],
  ['GET', '/vehicles/compliance', 'admin assembly'],
  ['GET', '/vehicles/:id', 'admin assembly platform'],
  ['POST', '/vehicles/:id/inspect', 'assembly'],
  ['POST', '/vehicles/:id/reinspect', 'assembly'],
  ['GET', '/vehicles/:id/inspections', 'admin assembly'],
  ['POST', '/vehicles/:id/inspections/:inspectionId/appeal', 'assembly'],
  ['POST', '/vehicles/:id/inspections/:inspectionId/appeal/decision', 'assembly'],
  ['POST', '/vehicles/:id/correct', 'admin assembly'],
  ['POST', '/vehicles/:id/renew', 'admin assembly'],
  ['POST', '/vehicles/:id/approve', 'assembly'],
  ['POST', '/vehicles/:id/link', 'admin assembly'],
  ['POST', '/vehicles/:id/transfer', 'admin'],
  ['GET', '/assembly/inspection-settings/:id', 'admin assembly'],
  ['PUT', '/assembly/inspection-settings/:id', 'admin assembly'],
  ['GET', '/vehicles/work-pack', 'assembly'],
  ['POST', '/vehicles/:id/inspection-photos', 'assembly'],
  ['GET', '/vehicles/:id/inspection-photos', 'admin assembly'],
  ['GET', '/vehicles/:id/inspection-photos/:photoId', 'admin assembly'],
  ['GET', '/vehicles/:id/certificate', 'admin assembly'],
  ['POST', '/vehicles/:id/certificate', 'admin assembly'],
  ['GET', '/.well-known/jwks.json', 'public'],
  ['GET', '/v/:token', 'public'],
  ['GET', '/vehicles/owner/all', 'admin assembly'],
  ['GET', '/vehicles/owner/search', 'admin assembly'],
  ['POST', '/vehicles/owner/add', 'admin assembly'],
  ['POST', '/vehicles/owner/:id/verify', 'admin assembly'],
  ['POST', '/vehicles/owner/:id/correct', 'admin assembly'],
  ['POST', '/vehicles/owner/:id/transfer', 'admin'],
  ['GET', '/drivers/all', 'optional'],
  ['POST', '/drivers/add', 'optional'],
  ['GET', '/drivers/:id', 'admin assembly platform'],
  ['POST', '/drivers/:id/activate', 'optional'],
  ['POST', '/drivers/:id/approve', 'assembly'],
  ['POST', '/drivers/:id/correct', 'admin assembly'],
  ['POST', '/drivers/:id/renew', 'admin assembly'],
  ['POST', '/drivers/:id/revoke', 'assembly'],
  ['POST', '/drivers/:id/status', 'admin platform'],
  ['POST', '/drivers/:id/activation-key', 'admin assembly'],
  ['POST', '/drivers/:id/transfer', 'admin'],
  ['GET', '/trips/intracity/date', 'admin assembly'],
  ['POST', '/trips/intracity/add', 'admin platform'],
  ['GET', '/trips/:id', 'admin platform'],
  ['POST', '/trips/:id/end', 'admin platform'],
  ['POST', '/trips/:id/checkout', 'admin platform'],
  ['POST', '/trips/:id/settle', 'admin platform'],
  ['POST', '/trips/:id/refund', 'admin platform'],
  ['GET', '/assembly/all', 'admin assembly merchant'],
  ['GET', '/assembly/users', 'admin assembly'],
  ['POST', '/assembly/add', 'admin'],
  ['POST', '/assembly/regions/add', 'admin'],
  ['GET', '/assembly/regions/all', 'admin assembly merchant platform'],
  ['GET', '/assembly/regions/:id', 'admin assembly merchant platform'],
  ['POST', '/assembly/users/add', 'admin assembly'],
  ['GET', '/assembly/users/:id', 'admin assembly'],
  ['POST', '/assembly/users/:id/disable', 'admin assembly'],
  ['POST', '/assembly/users/:id/enable', 'admin assembly'],
  ['POST', '/assembly/users/:id/confirm', 'admin assembly'],
  ['GET', '/assembly/:id', 'admin assembly merchant platform'],
  ['POST', '/stations/add', 'admin'],
  ['GET', '/stations/all', 'admin assembly merchant platform'],
  ['GET', '/stations/:id', 'admin assembly merchant platform'],
  ['POST', '/unions/add', 'admin'],
  ['GET', '/unions/all', 'admin assembly merchant platform'],
  ['GET', '/unions/:id', 'admin assembly merchant platform'],
  ['GET', '/search', 'admin assembly'],
  ['GET', '/audit/entries', 'admin'],
  ['GET', '/audit', 'admin assembly'],
  ['POST', '/admin/merchants/add', 'admin'],
  ['POST', '/admin/keys', 'admin'],
  ['POST', '/admin/keys/:id/revoke', 'admin'],
  ['GET', '/admin/keys', 'admin'],
  ['POST', '/auth/sign-in', 'public'],
  ['GET', '/auth/session', 'assembly'],
  ['PUT', '/auth/language', 'assembly'],
  ['POST', '/auth/sign-out', 'assembly'],
  ['POST', '/auth/invitations', 'admin assembly'],
  ['POST', '/auth/password-reset', 'public'],
  ['POST', '/auth/password', 'public'],
  ['POST', '/auth/password/change', 'assembly'],
  ['POST', '/payment/request', 'merchant'],
  ['POST', '/payment/callback/:token', 'public'],
  ['GET', '/payment/check_transaction', 'merchant'],
  ['GET', '/payment/transactions', 'merchant'],
  ['GET', '/payment/deliveries', 'merchant'],
  ['POST', '/payment/signing-secret/rotate', 'merchant'],
  ['POST', '/payment/notifications/:id/redeliver', 'admin'],
  ['POST', '/payment/merchants/:id/notifications/resume', 'admin'],
  ['POST', '/vehicles/owner/:id/reminders', 'admin assembly'],
  ['POST', '/drivers/:id/reminders', 'admin assembly'],
  // Open to the API key guard; HubtelInboundGuard takes Hubtel's Basic credentials (loopback only in the demo).
  ['POST', '/ussd/hubtel', 'public'],
  ['POST', '/sms/hubtel', 'public'],
  ['GET', '/sms/hubtel', 'public'],
  ['GET', '/vehicle-reports', 'admin assembly'],
  ['POST', '/enforcement/checks', 'assembly'],
  ['GET', '/enforcement/checks', 'admin assembly'],
  ['POST', '/enforcement/catalogue', 'admin assembly'],
  ['GET', '/enforcement/catalogue', 'admin assembly'],
  ['POST', '/enforcement/offences', 'assembly'],
  ['GET', '/enforcement/notices/:id', 'admin assembly'],
  ['GET', '/n/:token', 'public'],
  ['POST', '/n/:token/contest', 'public'],
  ['GET', '/enforcement/contests', 'admin assembly'],
  ['POST', '/enforcement/notices/:id/decision', 'admin assembly'],
  ['POST', '/enforcement/notices/:id/cancel', 'admin assembly'],
  ['GET', '/enforcement/notices/:id/contest-photo', 'admin assembly'],
  ['GET', '/enforcement/settings/:id', 'admin assembly'],
  ['PUT', '/enforcement/settings/:id', 'admin assembly'],
  ['GET', '/enforcement/reports', 'admin assembly'],
  ['POST', '/n/:token/pay', 'public'],
  ['GET', '/assembly/fraud-flags', 'admin assembly'],
  ['POST', '/assembly/fraud-flags/:id/clear', 'admin assembly'],
  ['GET', '/assembly/fraud-settings/:id', 'admin assembly'],
  ['PUT', '/assembly/fraud-settings/:id', 'admin assembly'],
  ['PUT', '/assembly/station-locations/:id', 'admin'],
  ['GET', '/enforcement/my-day', 'assembly'],
  ['GET', '/enforcement/work-pack', 'assembly'],
  ['POST', '/enforcement/notices/:id/photos', 'admin assembly'],
  ['GET', '/enforcement/notices/:id/photos', 'admin assembly'],
  ['GET', '/enforcement/notices/:id/photos/:photoId', 'admin assembly'],
  ['GET', '/n/:token/photos/:photoId', 'public'],
  ['GET', '/health/live', 'public'],
  ['GET', '/health/ready', 'public'],
  ['GET', '/health', 'public'],
];

/** A controller whose author forgot the access rule of one route. */
@Controller('forgotten')
class Forgotten {
  @Get('open')
  open() {
    return 'secret';
  }
  @Get('closed')
  @Roles('admin')
  closed() {
    return 'fine';
  }
}

describe('access rules: closed by default', () => {
  it('declares an access rule on every route, exactly as listed', () => {
    const actual = routeTable(controllersOfApp()).map((r) => [
      r.method,
      r.path,
      r.rule.kind === 'roles' ? r.rule.roles.join(' ') : r.rule.kind,
    ]);
    expect(actual).toEqual(ROUTES);
    expect(() => assertEveryRouteDeclared(controllersOfApp())).not.toThrow();
  });

  it('stops the start when a route declares no rule (a forgotten decorator never opens a route)', () => {
    expect(() => assertEveryRouteDeclared([Forgotten as Type])).toThrow(
      'Routes without an access rule (@Roles, @OptionalAuth or @Public): GET /forgotten/open (Forgotten.open)',
    );
  });

  it('refuses at the guard a call to a route with no rule, key or not', async () => {
    const guard = new ApiKeyGuard(
      new Reflector(),
      {} as Authenticator,
      {} as Authenticator,
      {} as RateLimits,
      {} as AppConfig,
    );
    const call = (headers: Record<string, string>) =>
      ({
        getHandler: () => Forgotten.prototype.open,
        getClass: () => Forgotten,
        switchToHttp: () => ({ getRequest: () => ({ headers }) }),
      }) as unknown as ExecutionContext;
    await expect(guard.canActivate(call({}))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(guard.canActivate(call({ authorization: 'tp_admin_x' }))).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lists the very controllers the running app mounts, and the guard refuses what it does not know', async () => {
    const store = await openTierStore('embedded');
    const running = await startTestApp(store.config());
    try {
      const mounted = [...running.app.get(ModulesContainer).values()].flatMap((m) =>
        [...m.controllers.values()].map((w) => w.metatype as Type),
      );
      expect(new Set(mounted)).toEqual(new Set(controllersOfApp()));
      // A public route answers without a key; a role route does not.
      await request(running.app.getHttpServer()).get('/health').expect(200);
      await request(running.app.getHttpServer()).get('/admin/keys').expect(401);
    } finally {
      await running.close();
      await store.dispose();
    }
  });
});

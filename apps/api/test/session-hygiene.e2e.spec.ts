import request from 'supertest';
import type { RunningApp } from '../src/app';
import { PeopleService } from '../src/people/people.service';
import { SESSION_CLEANUP_QUEUE } from '../src/people/people-workers';
import type { ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PASSWORD = 'the-harmattan-is-dry-42';

/** Gives the fixture's approver (Abena) a password through an invitation link, as an admin would. */
async function withPassword(running: RunningApp, f: ApiFixture): Promise<void> {
  const http = () => request(running.app.getHttpServer());
  await http()
    .post('/auth/invitations')
    .set('Authorization', f.keys.admin)
    .send({ user: f.ids.assemblyUser })
    .expect(202);
  const message = await running.database.prisma.outboxMessage.findFirst({
    where: { to: '+233244000111' },
    orderBy: { id: 'desc' },
  });
  const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
  await http().post('/auth/password').send({ token, password: PASSWORD }).expect(204);
}

const setCookieOf = (res: request.Response) =>
  ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? [])[0];

describeOnEachTier('session cookies, caching of personal data, and ended sessions', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });

  beforeAll(async () => {
    await withPassword(running, f);
  });

  it('names the Secure session cookie __Host- (path /, no Domain) and ignores the bare name', async () => {
    const res = await http().post('/auth/sign-in').send({ email: 'abena@ama.gov.gh', password: PASSWORD }).expect(200);
    const cookie = setCookieOf(res);
    expect(cookie).toMatch(/^__Host-tp_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; Path=/;');
    expect(cookie).toContain('; Secure');
    expect(cookie).not.toMatch(/Domain=/i);
    const token = cookie.split(';')[0].split('=')[1];
    await http().get('/auth/session').set('Cookie', `__Host-tp_session=${token}`).expect(200);
    // A cookie without the prefix could have been planted by a neighbouring host: it is not a session here.
    await http().get('/auth/session').set('Cookie', `tp_session=${token}`).expect(401);
  });

  it('answers personal data to identified callers with Cache-Control: no-store', async () => {
    for (const path of [
      `/drivers/${f.ids.workingDriver}`,
      '/drivers/all',
      '/vehicles/owner/all',
      '/assembly/users',
      `/assembly/users/${f.ids.assemblyUser}`,
      `/vehicles/${f.ids.linkedVehicle}`,
    ]) {
      const res = await http().get(path).set('Authorization', f.keys.assembly).expect(200);
      expect([path, res.headers['cache-control']]).toEqual([path, 'no-store']);
    }
    const signedIn = await http().post('/auth/sign-in').send({ email: 'abena@ama.gov.gh', password: PASSWORD });
    const session = setCookieOf(signedIn).split(';')[0];
    const viaSession = await http().get('/vehicles/owner/all').set('Cookie', session).expect(200);
    expect(viaSession.headers['cache-control']).toBe('no-store');
  });

  it('deletes ended sessions (past their end, or idle too long) and keeps live ones', async () => {
    const prisma = running.database.prisma;
    await prisma.personSession.deleteMany({});
    const now = Date.now();
    const row = (id: string, lastSeenAt: number, expiresAt: number) => ({
      id: id.padEnd(64, '0'),
      userId: f.ids.assemblyUser,
      csrfToken: 'x'.repeat(43),
      createdAt: new Date(lastSeenAt),
      lastSeenAt: new Date(lastSeenAt),
      expiresAt: new Date(expiresAt),
    });
    await prisma.personSession.createMany({
      data: [
        row('a', now - 60_000, now + 3_600_000),
        row('b', now - 60_000, now - 1000),
        row('c', now - 31 * 60_000, now + 3_600_000),
      ],
    });
    expect(await running.app.get(PeopleService).deleteEndedSessions()).toBe(2);
    expect((await prisma.personSession.findMany()).map((s) => s.id[0])).toEqual(['a']);
  });
});

describeOnPostgres('the scheduled session cleanup', () => {
  const { running } = appOnTier('postgresql');

  it('is declared as an hourly pg-boss schedule', async () => {
    const rows = await running.database.prisma.$queryRawUnsafe<Array<{ name: string; cron: string }>>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = $1',
      SESSION_CLEANUP_QUEUE,
    );
    expect(rows).toEqual([{ name: SESSION_CLEANUP_QUEUE, cron: '7 * * * *' }]);
  });
});

describeOnPostgres('the session cookie on plain http (COOKIE_SECURE=false, development)', () => {
  const { running, fixture: f } = appOnTier('postgresql', {
    fixture: true,
    config: (config) => ({ ...config, people: { ...config.people, cookieSecure: false } }),
  });

  beforeAll(async () => {
    await withPassword(running, f);
  });

  it('keeps the bare name without Secure, since browsers refuse __Host- cookies that are not Secure', async () => {
    const http = () => request(running.app.getHttpServer());
    const res = await http().post('/auth/sign-in').send({ email: 'abena@ama.gov.gh', password: PASSWORD }).expect(200);
    const cookie = setCookieOf(res);
    expect(cookie).toMatch(/^tp_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).not.toContain('Secure');
    await http().get('/auth/session').set('Cookie', cookie.split(';')[0]).expect(200);
  });
});

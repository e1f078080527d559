import { FixedClock } from '@transport/domain/testing';
import { sha256Hex } from '../core/platform/secrets';
import { loadConfig } from '../config';
import { hashPassword } from '../core/platform/passwords';
import {
  ADMIN,
  APPROVER,
  CountingRateLimits,
  InMemoryPeople,
  INSPECTOR,
  OTHER_ASSEMBLY,
  RecordingMessages,
  STAFF_ASSEMBLY,
  T0,
} from '../core/testing/fixtures';
import { peopleOnFakes, quietEvents } from './people.testing';

const MINUTE = 60_000;

function setup(env: Record<string, string> = {}) {
  const people = new InMemoryPeople()
    .add({ ...person(INSPECTOR.id, 'inspector', 'ama@ama.gov.gh'), phone: '+233244000111' })
    .add(person(APPROVER.id, 'approver', 'kofi@ama.gov.gh'))
    .add(person('65a0000000000000000000a9', 'admin', 'efua@ama.gov.gh'))
    .add({ ...person('65a0000000000000000000b1', 'inspector', 'kweku@tma.gov.gh'), assemblyId: OTHER_ASSEMBLY });
  const messages = new RecordingMessages();
  const limits = new CountingRateLimits({ 'sign-in-account': 3, 'password-link': 5 });
  const clock = new FixedClock(T0);
  const config = loadConfig({ PUBLIC_BASE_URL: 'https://transport.example.com', ...env });
  const service = peopleOnFakes({ people, messages, limits, config, clock });
  const token = (i = -1) => /token=([A-Za-z0-9_-]{43})/.exec(messages.sent.at(i)?.text ?? '')?.[1] ?? '';
  return { people, messages, limits, clock, service, token };
}

function person(id: string, role: string, email: string) {
  return {
    id,
    role,
    email,
    name: email,
    phone: '+233244000999',
    assemblyId: STAFF_ASSEMBLY,
    assemblyName: 'AMA',
    disabled: false,
    awaitingConfirmation: false,
  };
}

describe('PeopleService on fakes', () => {
  it('invites by a one-time link to the phone, sets the password once and audits both', async () => {
    const s = setup();
    const { expiresAt } = await s.service.invite(INSPECTOR.id, ADMIN);
    expect(expiresAt).toEqual(new Date(Date.parse(T0) + 72 * 60 * MINUTE));
    expect(s.messages.sent).toEqual([
      {
        to: '+233244000111',
        text: expect.stringContaining(
          'AMA: you are invited to the assembly dashboard. You sign in with ama@ama.gov.gh. Set your password within 72 hours: https://transport.example.com/dashboard/#/set-password?token=',
        ),
      },
    ]);
    // Only the token's hash is kept.
    expect([...s.people.links.keys()]).toEqual([sha256Hex(s.token())]);
    await s.service.setPassword(s.token(), 'kente-cloth-at-dawn');
    await expect(s.service.setPassword(s.token(), 'kente-cloth-at-dawn')).rejects.toMatchObject({
      code: 'LINK_EXPIRED',
    });
    expect(s.people.audit.map((a) => [a.action, a.actor.role])).toEqual([
      ['invitationSent', 'admin'],
      ['PasswordSet', 'assembly'],
    ]);
    const signedIn = await s.service.signIn('AMA@ama.gov.gh ', 'kente-cloth-at-dawn', '203.0.113.7');
    expect(signedIn.person).toMatchObject({ id: INSPECTOR.id, role: 'inspector', assemblyName: 'AMA' });
  });

  it('lets an assembly admin invite their own users only, and no other role invite at all', async () => {
    const s = setup();
    const efua = { role: 'assembly', id: '65a0000000000000000000a9', assemblyId: STAFF_ASSEMBLY } as const;
    await expect(s.service.invite(INSPECTOR.id, efua)).resolves.toBeDefined();
    await expect(s.service.invite('65a0000000000000000000b1', efua)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.service.invite(INSPECTOR.id, APPROVER)).rejects.toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
    await expect(s.service.invite('65a0000000000000000000ff', ADMIN)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    s.messages.fail = true;
    await expect(s.service.invite(INSPECTOR.id, ADMIN)).rejects.toMatchObject({ code: 'MESSAGE_NOT_SENT' });
  });

  it('sends a reset link only to a known account, and refuses a weak password without using the link', async () => {
    const s = setup();
    await s.service.requestReset('nobody@ama.gov.gh', '198.51.100.9');
    await s.service.settled();
    expect(s.messages.sent).toEqual([]);
    await s.service.requestReset('Kofi@AMA.gov.gh', '198.51.100.9');
    await s.service.settled();
    expect(s.messages.sent[0].text).toContain('kofi@ama.gov.gh: set a new password within 60 minutes');
    expect(s.messages.sent[0].text).toMatch(/set-password\?token=[\w-]+&email=kofi%40ama\.gov\.gh/);
    await expect(s.service.setPassword(s.token(), 'kofi-kofi-kofi')).rejects.toMatchObject({ code: 'WEAK_PASSWORD' });
    await expect(s.service.setPassword(s.token(), 'x'.repeat(801))).rejects.toMatchObject({ code: 'WEAK_PASSWORD' });
    await s.service.setPassword(s.token(), 'a-long-walk-to-tema');
    // A link past its time sets nothing.
    await s.service.requestReset('kofi@ama.gov.gh', '198.51.100.9');
    await s.service.settled();
    s.clock.advance(61 * MINUTE);
    await expect(s.service.setPassword(s.token(), 'another-long-walk')).rejects.toMatchObject({ code: 'LINK_EXPIRED' });
  });

  it("never refuses the account's own person their reset: a session or a known address has its own budget", async () => {
    const s = setup();
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const session = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    for (let i = 0; i < 5; i++) await s.service.requestReset('kofi@ama.gov.gh', `198.51.100.${i}`);
    await expect(s.service.requestReset('kofi@ama.gov.gh', '198.51.100.9')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    await s.service.requestReset('kofi@ama.gov.gh', '203.0.113.7');
    await s.service.requestReset('kofi@ama.gov.gh', '192.0.2.1', session.token);
    // Another account's session, or one that ended, proves nothing.
    await expect(s.service.requestReset('kofi@ama.gov.gh', '192.0.2.2', 'x'.repeat(43))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    // The address is known for 90 days after the last sign-in from it.
    s.clock.advance(91 * 24 * 60 * MINUTE);
    await expect(s.service.requestReset('kofi@ama.gov.gh', '203.0.113.7')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    await s.service.settled();
    expect(s.messages.sent).toHaveLength(7);
  });

  it('answers a reset request for a known and an unknown email after the same work, before the account is looked up', async () => {
    const s = setup();
    const calls: string[] = [];
    const findByEmail = s.people.findByEmail.bind(s.people);
    s.people.findByEmail = (email) => (calls.push('look up the account'), findByEmail(email));
    const consume = s.limits.consume.bind(s.limits);
    s.limits.consume = (limit, key) => (calls.push(`count ${limit}`), consume(limit, key));
    const send = s.messages.send.bind(s.messages);
    s.messages.send = (message) => (calls.push('send the text'), send(message));

    await s.service.requestReset('nobody@ama.gov.gh', '198.51.100.9');
    const unknown = calls.splice(0);
    await s.service.requestReset('kofi@ama.gov.gh', '198.51.100.9');
    const known = calls.splice(0);
    expect(known).toEqual(['count sign-in-address', 'count password-link']);
    expect(unknown).toEqual(known);

    // Afterwards: the known account gets its link.
    await s.service.settled();
    expect(calls).toEqual(['look up the account', 'look up the account', 'send the text']);
    expect(s.messages.sent.map((m) => m.to)).toEqual(['+233244000999']);

    // A gateway failure is logged, not answered: the asker would learn that the account exists.
    const errors: string[] = [];
    const logged = peopleOnFakes({
      ...s,
      config: loadConfig({}),
      events: { ...quietEvents, error: (event) => errors.push(event) },
    });
    s.messages.fail = true;
    await expect(logged.requestReset('kofi@ama.gov.gh', '198.51.100.9')).resolves.toBeUndefined();
    await logged.onApplicationShutdown();
    expect(errors).toEqual(['password_reset_not_sent']);
  });

  it('signs in with the right password only; failures count, a success clears them; past the limit nothing is checked', async () => {
    const s = setup();
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const wrong = () => s.service.signIn('kofi@ama.gov.gh', 'wrong-password', '203.0.113.7');
    await expect(wrong()).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(s.service.signIn('nobody@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7')).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
      detail: 'The email or password is not right',
    });
    // An account without a password (never invited) signs in with nothing.
    await expect(s.service.signIn('ama@ama.gov.gh', '', '203.0.113.7')).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    await expect(wrong()).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    for (let i = 0; i < 3; i++) await expect(wrong()).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    // Another address is another count.
    await expect(s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '198.51.100.4')).resolves.toBeDefined();
  });

  it('keeps a short idle session (SESSION_IDLE_MINUTES=1) alive while requests come, and tells its length', async () => {
    const s = setup({ SESSION_IDLE_MINUTES: '1' });
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const { token, idleSeconds } = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    expect(idleSeconds).toBe(60);
    // A request every 40 s for five minutes: each is within a minute of the one before, so the session lasts.
    for (let i = 0; i < 8; i++) {
      s.clock.advance(40_000);
      expect(await s.service.authenticate(token)).toBeDefined();
    }
    s.clock.advance(61_000);
    expect(await s.service.authenticate(token)).toBeUndefined();
  });

  it('authenticates a session as the user acting for their assembly, until idle or past its end', async () => {
    const s = setup();
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const { token, csrfToken, idleExpiresAt, endsAt } = await s.service.signIn(
      'kofi@ama.gov.gh',
      'a-long-walk-to-tema',
      '203.0.113.7',
    );
    expect(idleExpiresAt).toEqual(new Date(Date.parse(T0) + 30 * MINUTE));
    expect(endsAt).toEqual(new Date(Date.parse(T0) + 12 * 60 * MINUTE));
    const principal = await s.service.authenticate(token);
    expect(principal).toEqual({
      keyId: `session:${APPROVER.id}`,
      role: 'assembly',
      principalId: APPROVER.id,
      assemblyId: STAFF_ASSEMBLY,
      session: { id: sha256Hex(token), csrfToken },
    });
    expect(await s.service.current(principal!)).toMatchObject({ csrfToken, person: { id: APPROVER.id } });
    await expect(s.service.current({ keyId: 'k', role: 'assembly', principalId: APPROVER.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await s.service.authenticate('short')).toBeUndefined();
    expect(await s.service.authenticate('A'.repeat(43))).toBeUndefined();

    // Activity keeps it alive (written at most once a minute); 30 minutes of nothing ends it.
    s.clock.advance(20 * MINUTE);
    expect(await s.service.authenticate(token)).toBeDefined();
    expect(s.people.sessions.get(sha256Hex(token))?.lastSeenAt).toEqual(s.clock.now());
    s.clock.advance(30 * MINUTE);
    expect(await s.service.authenticate(token)).toBeUndefined();
    await expect(s.service.current(principal!)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    // However active, a session ends SESSION_MAX_HOURS after sign-in; signing out ends it at once.
    const second = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    for (let i = 0; i < 12 * 3; i++) {
      s.clock.advance(20 * MINUTE);
      await s.service.authenticate(second.token);
    }
    expect(await s.service.authenticate(second.token)).toBeUndefined();
    const third = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    await s.service.signOut((await s.service.authenticate(third.token))!);
    expect(await s.service.authenticate(third.token)).toBeUndefined();
  });

  it("changes a person's own password with the current one: other sessions end, this one is renewed, audited", async () => {
    const s = setup();
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const here = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    const elsewhere = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '198.51.100.4');
    await s.service.requestReset('kofi@ama.gov.gh', '198.51.100.9');
    await s.service.settled();
    const link = s.token();
    s.clock.advance(5 * MINUTE);
    const principal = (await s.service.authenticate(here.token))!;
    const renewed = await s.service.changePassword(
      principal,
      'a-long-walk-to-tema',
      'the-road-to-cape-coast',
      '203.0.113.7',
    );
    expect(renewed.person).toMatchObject({ id: APPROVER.id });
    expect(renewed.csrfToken).not.toBe(here.csrfToken);
    expect(renewed.token).not.toBe(here.token);
    // A new session id, not a longer session: it ends when the one it replaces would have.
    expect(renewed.endsAt).toEqual(here.endsAt);
    expect(renewed.idleExpiresAt).toEqual(new Date(s.clock.now().getTime() + 30 * MINUTE));
    expect(await s.service.authenticate(here.token)).toBeUndefined();
    expect(await s.service.authenticate(elsewhere.token)).toBeUndefined();
    expect(await s.service.authenticate(renewed.token)).toMatchObject({ principalId: APPROVER.id });
    expect(s.people.sessions.size).toBe(1);
    expect(s.people.audit.at(-1)).toEqual({
      action: 'PasswordChanged',
      userId: APPROVER.id,
      actor: { role: 'assembly', id: APPROVER.id, assemblyId: STAFF_ASSEMBLY },
      after: { otherSessionsEnded: 1 },
    });
    await expect(s.service.setPassword(link, 'someone-else-sets-this')).rejects.toMatchObject({ code: 'LINK_EXPIRED' });
    await expect(s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7')).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    await expect(s.service.signIn('kofi@ama.gov.gh', 'the-road-to-cape-coast', '203.0.113.7')).resolves.toBeDefined();
  });

  it('refuses a wrong current password as a failed sign-in of the account from that address', async () => {
    const s = setup();
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const { token } = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '198.51.100.4');
    const principal = (await s.service.authenticate(token))!;
    const change = (current: string) =>
      s.service.changePassword(principal, current, 'the-road-to-cape-coast', '203.0.113.7');
    await expect(change('wrong-password')).rejects.toMatchObject({
      code: 'CURRENT_PASSWORD_WRONG',
      detail: 'Your current password is not right',
    });
    expect(s.limits.used.get('sign-in-account:kofi@ama.gov.gh|203.0.113.7')).toBe(1);
    expect(s.limits.used.get('sign-in-address:203.0.113.7')).toBe(1);
    // A right one clears the account's failures, as a sign-in does.
    await change('a-long-walk-to-tema');
    expect(s.limits.used.has('sign-in-account:kofi@ama.gov.gh|203.0.113.7')).toBe(false);
    const again = (await s.service.authenticate(
      (await s.service.signIn('kofi@ama.gov.gh', 'the-road-to-cape-coast', '198.51.100.4')).token,
    ))!;
    for (let i = 0; i < 2; i++)
      await expect(s.service.signIn('kofi@ama.gov.gh', 'wrong', '203.0.113.7')).rejects.toMatchObject({
        code: 'INVALID_CREDENTIALS',
      });
    await expect(
      s.service.changePassword(again, 'wrong-password', 'a-third-new-password', '203.0.113.7'),
    ).rejects.toMatchObject({
      code: 'CURRENT_PASSWORD_WRONG',
    });
    // Past the limit even the right password is not checked.
    await expect(
      s.service.changePassword(again, 'the-road-to-cape-coast', 'a-third-new-password', '203.0.113.7'),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(s.people.audit.filter((a) => a.action === 'PasswordChanged')).toHaveLength(1);
  });

  it('refuses a weak new password, the current one again, an API key, an ended session and a race lost', async () => {
    const s = setup();
    s.people.people.get(APPROVER.id)!.passwordHash = await hashPassword('a-long-walk-to-tema');
    const { token } = await s.service.signIn('kofi@ama.gov.gh', 'a-long-walk-to-tema', '203.0.113.7');
    const principal = (await s.service.authenticate(token))!;
    const change = (next: string) => s.service.changePassword(principal, 'a-long-walk-to-tema', next, '203.0.113.7');
    await expect(change('short')).rejects.toMatchObject({ code: 'WEAK_PASSWORD' });
    await expect(change('kofi-kofi-kofi-kofi')).rejects.toMatchObject({ code: 'WEAK_PASSWORD' });
    await expect(change('a-long-walk-to-tema')).rejects.toMatchObject({
      code: 'WEAK_PASSWORD',
      detail: 'The new password must not be the current one',
    });
    await expect(
      s.service.changePassword({ keyId: 'k', role: 'assembly', principalId: APPROVER.id }, 'a', 'b', '203.0.113.7'),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // Another change stored meanwhile (its hash is no longer the one checked): this one changes nothing.
    const stored = s.people.people.get(APPROVER.id)!;
    const changeCredential = s.people.changePassword.bind(s.people);
    s.people.changePassword = async (change, audit) => {
      stored.passwordHash = await hashPassword('set-by-the-other-tab');
      return changeCredential(change, audit);
    };
    await expect(change('the-road-to-cape-coast')).rejects.toMatchObject({ code: 'CURRENT_PASSWORD_WRONG' });
    expect(await s.service.authenticate(token)).toBeDefined();
    await s.service.signOut(principal);
    await expect(change('the-road-to-cape-coast')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(s.people.audit.filter((a) => a.action === 'PasswordChanged')).toEqual([]);
  });
});

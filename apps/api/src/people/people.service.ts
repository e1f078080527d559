import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  assertDuty,
  CommonErrors,
  DomainError,
  parseLanguage,
  type Actor,
  type AssemblyRole,
  type Clock,
  type IdGenerator,
  type SecretHasher,
} from '@transport/domain';
import type { AppConfig } from '../config';
import { passwordLinkText } from '../i18n/sms-texts';
import { AppError } from '../core/errors';
import { actorOf, type Principal } from '../core/auth/principal';
import { hashPassword, passwordProblem, UNUSABLE_HASH, verifyPassword, PASSWORD_MAX } from '../core/platform/passwords';
import { randomToken, sameSecret, sha256Hex } from '../core/platform/secrets';
import type {
  Authenticator,
  EventLog,
  MessageSender,
  PeopleDirectory,
  PersonRecord,
  PersonSessionRecord,
  RateLimits,
} from '../core/ports';
import {
  APP_CONFIG,
  CLOCK,
  EVENT_LOG,
  ID_GENERATOR,
  MESSAGE_SENDER,
  PEOPLE,
  RATE_LIMITS,
  SECRET_HASHER,
} from '../core/tokens';

const MINUTE = 60_000;

/** An address an account was signed in to from proves a reset's asker this long after the last sign-in. */
const KNOWN_ADDRESS_MS = 90 * 24 * 60 * MINUTE;
/** A session's last activity is written at most this often (not on every request). */
const TOUCH_EVERY_MS = MINUTE;

import { publicPerson, type SessionInfo } from './signed-in-person';
export type { SessionInfo, SignedInPerson } from './signed-in-person';

const SAME_PASSWORD = 'The new password must not be the current one';
const wrongCurrentPassword = () => new AppError('CURRENT_PASSWORD_WRONG', 'Your current password is not right');

/**
 * Assembly staff as people: invitations and resets (one-time links sent through the messaging port), passwords
 * (scrypt, off the event loop), sign-in (rate-limited) and cookie sessions with a CSRF token and idle expiry. API keys
 * stay for machines; a session acts exactly as its user's assembly key would.
 */
@Injectable()
export class PeopleService implements OnApplicationShutdown, Authenticator {
  /** Reset links being looked up and sent after their request was answered. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @Inject(PEOPLE) private readonly people: PeopleDirectory,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
  ) {}

  /**
   * Sends an assembly user a link to set their password. An admin may invite anyone; an assembly admin (duty
   * manageAssemblyUsers) the users of their own assembly. Another assembly's user is "not found", as everywhere.
   */
  async invite(userId: string, actor: Actor): Promise<{ expiresAt: Date }> {
    const person = await this.people.findById(userId);
    if (!person || (actor.role === 'assembly' && person.assemblyId !== actor.assemblyId)) {
      throw CommonErrors.notFound('assembly user', userId);
    }
    if (actor.role === 'assembly') {
      const self = await this.people.findById(actor.id);
      if (!self) throw CommonErrors.notFound('assembly user', actor.id);
      assertDuty({ role: self.role as AssemblyRole }, 'manageAssemblyUsers');
    }
    if (person.disabled)
      throw new DomainError(
        'ASSEMBLY_USER_DISABLED',
        'This user is disabled; enable them before inviting them',
        'user',
      );
    return this.sendLink(person, 'invitation', actor);
  }

  /**
   * Sends a reset link to the account's phone, when the email is an assembly user's. The answer is the same either
   * way (nobody learns who has an account here).
   *
   * Counted per address (with sign-ins) and per account, at most five links an hour: unless the asker proves to be the
   * account's person, by a live session of theirs (`sessionToken`) or by asking from an address the account was signed
   * in to from (in the last 90 days). They have a budget of their own, so strangers using up the account's never
   * refuse them their own reset.
   *
   * The request itself does the same work for every email (one lookup of the email and address, the counts) and is
   * answered before the account is read: the lookup, the link and the text message happen afterwards, so neither the
   * answer's time nor a gateway failure tells a known email from an unknown one.
   */
  async requestReset(email: string, address: string, sessionToken?: string): Promise<void> {
    const normalised = email.trim().toLowerCase();
    if (await this.provesAccount(normalised, address, sessionToken)) {
      await this.limits.consume('password-link-proven', normalised);
    } else {
      await this.limitAddress(address);
      await this.limits.consume('password-link', normalised);
    }
    this.afterAnswer(() => this.sendReset(normalised));
  }

  /** A live session of the account's person, or an address the account was signed in to from. */
  private async provesAccount(email: string, address: string, sessionToken?: string): Promise<boolean> {
    const now = this.clock.now();
    if (sessionToken && sessionToken.length >= 20 && sessionToken.length <= 100) {
      const found = await this.people.findSession(sha256Hex(sessionToken), now, this.idleSince(now));
      if (found?.person.email === email) return true;
    }
    return this.people.signedInFrom(this.knownAddressKey(email, address), new Date(now.getTime() - KNOWN_ADDRESS_MS));
  }

  private knownAddressKey(email: string, address: string): string {
    return this.hasher.hash(`signed-in:${email}|${address}`);
  }

  /** Waits for the reset links still being sent (the shutdown, so none is cut off midway; and tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  private async sendReset(email: string): Promise<void> {
    const person = await this.people.findByEmail(email);
    if (!person || person.disabled) {
      this.events.info('password_reset_unknown_account', {});
      return;
    }
    await this.sendLink(person, 'reset', { role: 'anonymous', id: 'anonymous' });
  }

  /** Runs `work` once the current answer has been written (setImmediate: after the pending I/O callbacks). */
  private afterAnswer(work: () => Promise<void>): void {
    const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) =>
        this.events.error('password_reset_not_sent', { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  private async sendLink(
    person: PersonRecord,
    purpose: 'invitation' | 'reset',
    actor: Actor,
  ): Promise<{ expiresAt: Date }> {
    const now = this.clock.now();
    const ms =
      purpose === 'invitation'
        ? this.config.people.invitationHours * 60 * MINUTE
        : this.config.people.resetMinutes * MINUTE;
    const expiresAt = new Date(now.getTime() + ms);
    const token = randomToken();
    await this.people.addLink(
      { id: this.ids.next(), tokenHash: sha256Hex(token), userId: person.id, purpose, expiresAt, createdAt: now },
      { actor },
    );
    // The token travels in the fragment: browsers never send it to a server, so it stays out of access logs.
    // The e-mail the person signs in with goes with it (the set-password screen names it): staff invited by an admin
    // do not always know which of their addresses the assembly registered.
    const url = `${this.config.publicBaseUrl}/dashboard/#/set-password?token=${token}&email=${encodeURIComponent(person.email)}`;
    const text = passwordLinkText(
      purpose,
      person.assemblyName,
      person.email,
      purpose === 'invitation' ? this.config.people.invitationHours : this.config.people.resetMinutes,
      url,
      person.language,
    );
    try {
      await this.messages.send({ to: person.phone, text });
    } catch (error) {
      throw new AppError('MESSAGE_NOT_SENT', `The link could not be sent: ${(error as Error).message}`);
    }
    return { expiresAt };
  }

  /**
   * Using and asking for password links count against the sign-in limit per address: guessing a link is hopeless,
   * but not free, and one address cannot have text messages sent to every account.
   */
  async limitAddress(address: string): Promise<void> {
    await this.limits.consume('sign-in-address', address);
  }

  /** Sets the password of a link's user (once per link); their open sessions end. */
  async setPassword(token: string, password: string): Promise<void> {
    const tokenHash = sha256Hex(token);
    if (password.length > PASSWORD_MAX * 4)
      throw new AppError('WEAK_PASSWORD', `The password must be at most ${PASSWORD_MAX} characters long`);
    // The policy needs the user's email; the link is read twice (here and, atomically, when used).
    const person = await this.people.findByLinkToken(tokenHash, this.clock.now());
    if (!person) throw new AppError('LINK_EXPIRED', 'This link has expired or was already used; ask for a new one');
    const problem = passwordProblem(password, person.email);
    if (problem) throw new AppError('WEAK_PASSWORD', problem);
    const used = await this.people.useLink(tokenHash, await hashPassword(password), this.clock.now());
    if (!used) throw new AppError('LINK_EXPIRED', 'This link has expired or was already used; ask for a new one');
    this.events.info('password_set', { user: used.id });
  }

  /**
   * Checks an email and password and opens a session. Limited per account and address, and per address; a wrong
   * email and a wrong password get the same answer, after the same work.
   */
  async signIn(email: string, password: string, address: string): Promise<SessionInfo & { token: string }> {
    const normalised = email.trim().toLowerCase();
    // Every attempt counts per address, and per account and address; a success clears the latter, so what it holds
    // is the failures (and the attempts in flight). Counting before the password is checked makes check and count
    // one atomic step in the shared store: a burst of concurrent guesses cannot all pass a check made before any of
    // them was counted.
    const account = `${normalised}|${address}`;
    await this.limits.consume('sign-in-address', address);
    await this.limits.consume('sign-in-account', account);
    // Attempts at one account from all the addresses it was never signed in from, counted before the check as the
    // others are: guesses spread over a botnet stop there, while the addresses its person signed in from are never
    // refused by that count (the same lookup is made for every email, known or not).
    const knownAddress = this.knownAddressKey(normalised, address);
    const known = await this.people.signedInFrom(knownAddress, new Date(this.clock.now().getTime() - KNOWN_ADDRESS_MS));
    if (!known) await this.limits.consume('sign-in-account-all-addresses', normalised);
    const person = await this.people.findByEmail(normalised);
    const ok = await verifyPassword(password, person?.passwordHash ?? UNUSABLE_HASH);
    if (!person || !person.passwordHash || !ok) {
      this.events.warn('sign_in_refused', { known: Boolean(person) });
      throw new AppError('INVALID_CREDENTIALS', 'The email or password is not right');
    }
    await this.limits.reset('sign-in-account', account);
    await this.people.rememberSignIn(knownAddress, this.clock.now());
    // Said only to whoever knows the password: anyone else learns nothing about the account.
    if (person.disabled) {
      this.events.warn('sign_in_refused_disabled', { user: person.id });
      throw new AppError('ACCOUNT_DISABLED', "This account is disabled; ask your assembly's admin");
    }
    if (person.awaitingConfirmation) {
      this.events.warn('sign_in_refused_unconfirmed', { user: person.id });
      throw new AppError(
        'ACCOUNT_NOT_CONFIRMED',
        'This account waits for a second admin (another assembly admin, or the national admin) to confirm it',
      );
    }
    const now = this.clock.now();
    const token = randomToken();
    const session = {
      id: sha256Hex(token),
      userId: person.id,
      csrfToken: randomToken(),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.config.people.sessionMaxHours * 60 * MINUTE),
    };
    await this.people.openSession(session);
    this.events.info('signed_in', { user: person.id });
    return { token, ...this.info(person, session) };
  }

  /**
   * A signed-in person's own change of password, proved by their current one. A wrong current password is a failed
   * sign-in (the same counts per account and address, and per address), so this cannot be used to guess it. On success
   * every other session of theirs ends, their unused password links are void, and the session it was made from is
   * renewed: a new token and CSRF token (whoever held the old ones holds nothing), ending when the old one would have.
   */
  async changePassword(
    principal: Principal,
    current: string,
    next: string,
    address: string,
  ): Promise<SessionInfo & { token: string }> {
    const { person, session } = await this.liveSession(principal);
    const account = `${person.email.trim().toLowerCase()}|${address}`;
    // Counted before the check, as a sign-in is: a burst of guesses cannot all pass a check made before any counted.
    await this.limits.consume('sign-in-address', address);
    await this.limits.consume('sign-in-account', account);
    const expectedHash = person.passwordHash;
    if (!expectedHash || !(await verifyPassword(current, expectedHash))) {
      this.events.warn('password_change_refused', { user: person.id });
      throw wrongCurrentPassword();
    }
    await this.limits.reset('sign-in-account', account);
    const problem = passwordProblem(next, person.email) ?? (next === current ? SAME_PASSWORD : undefined);
    if (problem) throw new AppError('WEAK_PASSWORD', problem);
    const now = this.clock.now();
    const token = randomToken();
    const renewed = {
      id: sha256Hex(token),
      userId: person.id,
      csrfToken: randomToken(),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: session.expiresAt,
    };
    const change = { userId: person.id, expectedHash, passwordHash: await hashPassword(next), at: now };
    const stored = await this.people.changePassword(
      { ...change, sessionId: session.id, renewed },
      { actor: actorOf(principal) },
    );
    // Another change was stored since the check: the password typed is no longer the current one.
    if (!stored) throw wrongCurrentPassword();
    this.events.info('password_changed', { user: person.id });
    return { token, ...this.info(person, renewed) };
  }

  /**
   * A signed-in person's own choice of language (400 INVALID_LANGUAGE for one the service does not speak); answers
   * the session with it. Choosing the same language again changes nothing.
   */
  async setLanguage(principal: Principal, value: string): Promise<SessionInfo> {
    const { person, session } = await this.liveSession(principal);
    const language = parseLanguage(value);
    if (person.language !== language) await this.people.setLanguage(person.id, language);
    this.events.info('language_chosen', { user: person.id, language });
    return this.info({ ...person, language }, session);
  }

  async signOut(principal: Principal): Promise<void> {
    if (principal.session) await this.people.closeSession(principal.session.id);
  }

  /** The signed-in person and the session's CSRF token (what the dashboard loads first). */
  async current(principal: Principal): Promise<SessionInfo> {
    const found = await this.liveSession(principal);
    return this.info(found.person, found.session);
  }

  /** The session of a person signed in (an API key is not a person: 403), and its person. */
  private async liveSession(principal: Principal): Promise<{ session: PersonSessionRecord; person: PersonRecord }> {
    if (!principal.session)
      throw new AppError('FORBIDDEN', 'This operation is for people signed in to the dashboard, not API keys');
    const now = this.clock.now();
    const found = await this.people.findSession(principal.session.id, now, this.idleSince(now));
    if (!found) throw new AppError('UNAUTHORIZED', 'Your session has ended; sign in again');
    return found;
  }

  /**
   * The principal of a session cookie's token: the session's user acting as an assembly key of theirs would, or
   * undefined when the token is unknown, idle too long or past its end.
   */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (token.length < 20 || token.length > 100) return undefined;
    const now = this.clock.now();
    const id = sha256Hex(token);
    const found = await this.people.findSession(id, now, this.idleSince(now));
    if (!found) return undefined;
    const { session, person } = found;
    if (!sameSecret(session.id, id)) return undefined;
    if (now.getTime() - session.lastSeenAt.getTime() >= this.touchEveryMs()) await this.people.touchSession(id, now);
    return {
      keyId: `session:${person.id}`,
      role: 'assembly',
      principalId: person.id,
      assemblyId: person.assemblyId,
      session: { id, csrfToken: session.csrfToken },
    };
  }

  /** Deletes ended sessions (the scheduled cleanup): they authenticate nobody already; this keeps the table small. */
  async deleteEndedSessions(): Promise<number> {
    const now = this.clock.now();
    const deleted = await this.people.deleteEndedSessions(now, this.idleSince(now));
    if (deleted > 0) this.events.info('sessions_deleted', { deleted });
    return deleted;
  }

  /**
   * How stale a session's last-seen time may get before a request records it again: a minute (one write a minute at
   * most per session), or a quarter of the idle time when that is shorter, so activity always extends a short session
   * (with SESSION_IDLE_MINUTES=1 and a one-minute step, requests 59 s apart let it end).
   */
  private touchEveryMs(): number {
    return Math.min(TOUCH_EVERY_MS, (this.config.people.sessionIdleMinutes * MINUTE) / 4);
  }

  private idleSince(now: Date): Date {
    return new Date(now.getTime() - this.config.people.sessionIdleMinutes * MINUTE);
  }

  private info(person: PersonRecord, session: { csrfToken: string; lastSeenAt: Date; expiresAt: Date }): SessionInfo {
    const idle = new Date(session.lastSeenAt.getTime() + this.config.people.sessionIdleMinutes * MINUTE);
    return {
      person: publicPerson(person),
      csrfToken: session.csrfToken,
      idleExpiresAt: idle < session.expiresAt ? idle : session.expiresAt,
      endsAt: session.expiresAt,
      idleSeconds: this.config.people.sessionIdleMinutes * 60,
    };
  }
}

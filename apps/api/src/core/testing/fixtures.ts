import {
  Assembly,
  AssemblyUser,
  DEFAULT_ACTIVATION_POLICY,
  Region,
  type Actor,
  type DriverRegistration,
  type Language,
} from '@transport/domain';
import {
  FixedClock,
  InMemoryUnitOfWork,
  PlainTextHasher,
  SeededRandomSource,
  SequentialIdGenerator,
  driverInput as domainDriverInput,
} from '@transport/domain/testing';

import { AppError } from '../errors';
import type {
  EventLog,
  MerchantRecord,
  MerchantRegistry,
  MessageSender,
  PasswordChange,
  PasswordLink,
  PeopleDirectory,
  PersonRecord,
  PersonSessionRecord,
  RateLimits,
} from '../ports';

// What the services' specs share: the fakes of every port, wired the way ports.module.ts (the composition root) wires the real adapters.

export const T0 = '2026-06-01T09:00:00.000Z';

/** The assembly the staff actors work in, and another one. */
export const STAFF_ASSEMBLY = '65a0000000000000000000e1';
export const OTHER_ASSEMBLY = '65a0000000000000000000e2';
const STAFF_REGION = '65a0000000000000000000f1';

export const INSPECTOR: Actor = { role: 'assembly', id: '65a0000000000000000000a1', assemblyId: STAFF_ASSEMBLY };
export const APPROVER: Actor = { role: 'assembly', id: '65a0000000000000000000a2', assemblyId: STAFF_ASSEMBLY };
/** An approver of the other assembly: outside the staff assembly's jurisdiction. */
export const OUTSIDER: Actor = { role: 'assembly', id: '65a0000000000000000000a4', assemblyId: OTHER_ASSEMBLY };
export const ADMIN: Actor = { role: 'admin', id: '65a0000000000000000000a0' };
export const PLATFORM: Actor = { role: 'platform', id: '65a0000000000000000000a3' };

/**
 * The two assemblies (a day before T0, so a test's own come first in lists) and the stored users behind INSPECTOR,
 * APPROVER and OUTSIDER (duties are checked against them).
 */
function seedStaff(uow: InMemoryUnitOfWork): void {
  const at = new Date(T0);
  const before = new Date(Date.parse(T0) - 86_400_000);
  void uow.stores.regions.add(
    Region.restore({
      id: STAFF_REGION,
      name: 'Greater Accra',
      country: '65a0000000000000000000f0',
      version: 0,
      createdAt: before,
      updatedAt: before,
    }),
  );
  for (const [id, name] of [
    [STAFF_ASSEMBLY, 'Accra Metropolitan Assembly'],
    [OTHER_ASSEMBLY, 'Tema Metropolitan Assembly'],
  ] as const) {
    void uow.stores.assemblies.add(
      Assembly.restore({
        id,
        name,
        regionId: STAFF_REGION,
        digitalAddress: 'GA-001-0001',
        type: 'metropolitan',
        version: 0,
        createdAt: before,
        updatedAt: before,
      }),
    );
  }
  for (const [actor, assemblyId, role, name] of [
    [INSPECTOR, STAFF_ASSEMBLY, 'inspector', 'Ama Inspector'],
    [APPROVER, STAFF_ASSEMBLY, 'approver', 'Kofi Approver'],
    [OUTSIDER, OTHER_ASSEMBLY, 'approver', 'Yaw Outsider'],
  ] as const) {
    void uow.stores.assemblyUsers.add(
      AssemblyUser.restore({
        id: actor.id,
        assemblyId,
        name,
        email: `${name.split(' ')[1].toLowerCase()}@ama.gov.gh`,
        phone: '+233244000000',
        role,
        version: 0,
        createdAt: at,
        updatedAt: at,
      }),
    );
  }
}

/** Event log lines, recorded: a test reads what an operator would have seen (and at which level). */
export class RecordingEvents implements EventLog {
  readonly lines: Array<{ level: string; event: string; fields: Record<string, unknown> }> = [];
  info = (event: string, fields: Record<string, unknown>) => void this.lines.push({ level: 'info', event, fields });
  warn = (event: string, fields: Record<string, unknown>) => void this.lines.push({ level: 'warn', event, fields });
  error = (event: string, fields: Record<string, unknown>) => void this.lines.push({ level: 'error', event, fields });
}

/** Text messages, recorded: a test reads what a phone would have received. */
export class RecordingMessages implements MessageSender {
  readonly sent: Array<{ to: string; text: string }> = [];
  fail = false;
  async send(message: { to: string; text: string }): Promise<void> {
    if (this.fail) throw new AppError('MESSAGE_NOT_SENT', 'The SMS gateway refused the message');
    this.sent.push({ ...message });
  }
}

export function fakePorts() {
  const uow = new InMemoryUnitOfWork();
  seedStaff(uow);
  return {
    limits: new CountingRateLimits(),
    messages: new RecordingMessages(),
    activation: DEFAULT_ACTIVATION_POLICY,
    uow,
    stores: uow.stores,
    clock: new FixedClock(T0),
    ids: new SequentialIdGenerator(),
    random: new SeededRandomSource(42),
    hasher: new PlainTextHasher(),
  };
}

export const ownerInput = (
  over: Partial<{ name: string; phone: string; email: string; idType: string; idNumber: string }> = {},
) => ({
  name: 'Kofi Asante',
  phone: '0244123456',
  email: 'Kofi.Asante@Example.com',
  idType: 'ghana_card',
  idNumber: 'GHA-712345678-9',
  ...over,
});

/** The domain's driver, as the app's specs register him: in the staff actors' assembly, where he is to be approved. */
export const driverInput = (over: Partial<DriverRegistration> = {}): DriverRegistration =>
  domainDriverInput({
    email: 'kojo.antwi@example.com',
    license: 'DL-0001-2020',
    assemblyId: STAFF_ASSEMBLY,
    ...over,
  });

/** Merchants in memory, with the actor of each change. */
export class InMemoryMerchants implements MerchantRegistry {
  readonly rows: Array<
    MerchantRecord & { signingSecret: string; previousSigningSecret?: string; previousUntil?: Date; actor: Actor }
  > = [];
  exists = async (id: string) => this.rows.some((r) => r.id === id);
  async add(m: { id: string; name: string; signingSecret: string; at: Date }, audit: { actor: Actor }) {
    const row = {
      id: m.id,
      name: m.name,
      signingSecret: m.signingSecret,
      version: 0,
      createdAt: m.at,
      updatedAt: m.at,
      actor: audit.actor,
    };
    this.rows.push(row);
    return row;
  }
  async rotateSigningSecret(
    r: { id: string; signingSecret: string; previousUntil: Date; at: Date },
    audit: { actor: Actor },
  ): Promise<boolean> {
    const row = this.rows.find((m) => m.id === r.id);
    if (!row) return false;
    Object.assign(row, {
      previousSigningSecret: row.signingSecret,
      signingSecret: r.signingSecret,
      previousUntil: r.previousUntil,
      actor: audit.actor,
    });
    return true;
  }
}

/** Rate limits in memory: each named limit allows `points` uses per key (no time window: a test is short). */
export class CountingRateLimits implements RateLimits {
  readonly used = new Map<string, number>();
  constructor(private readonly points: Record<string, number> = {}) {}
  async consume(limit: string, key: string): Promise<void> {
    const id = `${limit}:${key}`;
    const count = (this.used.get(id) ?? 0) + 1;
    this.used.set(id, count);
    if (count > (this.points[limit] ?? Infinity)) {
      throw new AppError('RATE_LIMITED', `Too many uses of ${limit}`, { retryAfter: 60 });
    }
  }
  async assertAvailable(limit: string, key: string): Promise<void> {
    if ((this.used.get(`${limit}:${key}`) ?? 0) >= (this.points[limit] ?? Infinity)) {
      throw new AppError('RATE_LIMITED', `Too many uses of ${limit}`, { retryAfter: 60 });
    }
  }
  async reset(limit: string, key: string): Promise<void> {
    this.used.delete(`${limit}:${key}`);
  }
}

/** People's passwords, links and sessions in memory, with the adapter's rules (one use per link, sessions end). */
export class InMemoryPeople implements PeopleDirectory {
  readonly people = new Map<string, PersonRecord>();
  readonly links = new Map<string, PasswordLink & { usedAt?: Date }>();
  readonly sessions = new Map<string, PersonSessionRecord>();
  readonly audit: Array<{ action: string; userId: string; actor: Actor; after?: object }> = [];

  add(person: PersonRecord): this {
    this.people.set(person.id, { ...person });
    return this;
  }
  async findByEmail(email: string) {
    return [...this.people.values()].find((p) => p.email === email);
  }
  async findById(id: string) {
    return this.people.get(id);
  }
  async findByLinkToken(tokenHash: string, at: Date) {
    const link = this.links.get(tokenHash);
    return link && !link.usedAt && link.expiresAt > at ? this.people.get(link.userId) : undefined;
  }
  async addLink(link: PasswordLink, audit: { actor: Actor }) {
    this.links.set(link.tokenHash, { ...link });
    this.audit.push({ action: `${link.purpose}Sent`, userId: link.userId, actor: audit.actor });
  }
  async useLink(tokenHash: string, passwordHash: string, at: Date) {
    const link = this.links.get(tokenHash);
    if (!link || link.usedAt || link.expiresAt <= at) return undefined;
    for (const other of this.links.values()) if (other.userId === link.userId) other.usedAt ??= at;
    const person = this.people.get(link.userId) as PersonRecord;
    person.passwordHash = passwordHash;
    for (const [id, session] of this.sessions) if (session.userId === link.userId) this.sessions.delete(id);
    this.audit.push({ action: 'PasswordSet', userId: link.userId, actor: { role: 'assembly', id: link.userId } });
    return person;
  }
  async changePassword(change: PasswordChange, audit: { actor: Actor }) {
    const person = this.people.get(change.userId);
    if (!person || person.passwordHash !== change.expectedHash) return false;
    person.passwordHash = change.passwordHash;
    for (const link of this.links.values()) if (link.userId === change.userId) link.usedAt ??= change.at;
    let others = 0;
    for (const [id, session] of this.sessions) {
      if (session.userId !== change.userId) continue;
      this.sessions.delete(id);
      if (id !== change.sessionId) others++;
    }
    this.sessions.set(change.renewed.id, { ...change.renewed });
    this.audit.push({
      action: 'PasswordChanged',
      userId: change.userId,
      actor: audit.actor,
      after: { otherSessionsEnded: others },
    });
    return true;
  }
  async setLanguage(userId: string, language: Language) {
    const person = this.people.get(userId);
    if (person) person.language = language;
  }
  async openSession(session: PersonSessionRecord) {
    this.sessions.set(session.id, { ...session });
  }
  async findSession(id: string, at: Date, idleSince: Date) {
    const session = this.sessions.get(id);
    const person = session && (this.people.get(session.userId) as PersonRecord);
    if (
      !session ||
      session.expiresAt <= at ||
      session.lastSeenAt <= idleSince ||
      person?.disabled ||
      person?.awaitingConfirmation
    )
      return undefined;
    return { session: { ...session }, person: person as PersonRecord };
  }
  readonly knownAddresses = new Map<string, Date>();
  async rememberSignIn(key: string, at: Date) {
    this.knownAddresses.set(key, at);
  }
  async signedInFrom(key: string, since: Date) {
    return (this.knownAddresses.get(key) ?? since) > since;
  }
  async touchSession(id: string, at: Date) {
    const session = this.sessions.get(id);
    if (session) session.lastSeenAt = at;
  }
  async closeSession(id: string) {
    this.sessions.delete(id);
  }
  async deleteEndedSessions(at: Date, idleSince: Date) {
    let deleted = 0;
    for (const [id, s] of this.sessions)
      if (s.expiresAt <= at || s.lastSeenAt <= idleSince) deleted += Number(this.sessions.delete(id));
    return deleted;
  }
  async endAllOf(userId: string, at: Date) {
    for (const [id, session] of this.sessions) if (session.userId === userId) this.sessions.delete(id);
    for (const link of this.links.values()) if (link.userId === userId) link.usedAt ??= at;
  }
}

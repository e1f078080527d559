import { auditEntriesFor, DEFAULT_LANGUAGE, isLanguage, type Actor, type Language } from '@transport/domain';
import type { PasswordChange, PasswordLink, PeopleDirectory, PersonRecord, PersonSessionRecord } from '../core/ports';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';

const PERSON = {
  id: true,
  assemblyId: true,
  name: true,
  email: true,
  phone: true,
  role: true,
  disabledAt: true,
  awaitingConfirmation: true,
  language: true,
  assembly: { select: { name: true } },
  credential: { select: { passwordHash: true } },
} as const;

interface PersonRow {
  id: string;
  assemblyId: string;
  name: string;
  email: string;
  phone: string;
  role: string;
  disabledAt: Date | null;
  awaitingConfirmation: boolean;
  language: string;
  assembly: { name: string };
  credential: { passwordHash: string } | null;
}

function toPerson(row: PersonRow): PersonRecord {
  const { assembly, credential, disabledAt, language, ...fields } = row;
  return {
    ...fields,
    language: isLanguage(language) ? language : DEFAULT_LANGUAGE,
    assemblyName: assembly.name,
    passwordHash: credential?.passwordHash,
    disabled: disabledAt !== null,
  };
}

/** People's passwords, password links and sessions in PostgreSQL (hashes only, never a password or a token). */
export class PrismaPeopleDirectory implements PeopleDirectory {
  constructor(private readonly prisma: PrismaClient) {}

  async findByEmail(email: string): Promise<PersonRecord | undefined> {
    const row = await this.prisma.assemblyUser.findUnique({ where: { email }, select: PERSON });
    return row ? toPerson(row) : undefined;
  }

  async setLanguage(userId: string, language: Language): Promise<void> {
    await this.prisma.assemblyUser.update({ where: { id: userId }, data: { language } });
  }

  async findById(id: string): Promise<PersonRecord | undefined> {
    const row = await this.prisma.assemblyUser.findUnique({ where: { id }, select: PERSON });
    return row ? toPerson(row) : undefined;
  }

  async findByLinkToken(tokenHash: string, at: Date): Promise<PersonRecord | undefined> {
    const link = await this.prisma.personToken.findUnique({
      where: { tokenHash },
      include: { user: { select: PERSON } },
    });
    return link && link.usedAt === null && link.expiresAt > at ? toPerson(link.user) : undefined;
  }

  async addLink(link: PasswordLink, audit: { actor: Actor }): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.personToken.create({ data: link });
      await new PrismaAuditLog(tx).append(
        auditEntriesFor(
          'assemblyUser',
          [
            {
              type: link.purpose === 'invitation' ? 'InvitationSent' : 'PasswordResetSent',
              aggregateId: link.userId,
              at: link.createdAt,
            },
          ],
          audit.actor,
          null,
          { link: link.id, purpose: link.purpose, expiresAt: link.expiresAt },
        ),
      );
    });
  }

  async useLink(tokenHash: string, passwordHash: string, at: Date): Promise<PersonRecord | undefined> {
    return this.prisma.$transaction(async (tx) => {
      // Conditional, so two uses of one link at once set one password: the second finds it used.
      const link = await tx.personToken.findUnique({ where: { tokenHash } });
      if (!link || link.usedAt !== null || link.expiresAt <= at) return undefined;
      const claimed = await tx.personToken.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: at } });
      if (claimed.count !== 1) return undefined;
      await tx.personToken.updateMany({ where: { userId: link.userId, usedAt: null }, data: { usedAt: at } });
      await tx.personCredential.upsert({
        where: { userId: link.userId },
        create: { userId: link.userId, passwordHash, updatedAt: at },
        update: { passwordHash, updatedAt: at },
      });
      await tx.personSession.deleteMany({ where: { userId: link.userId } });
      await new PrismaAuditLog(tx).append(
        auditEntriesFor(
          'assemblyUser',
          [{ type: 'PasswordSet', aggregateId: link.userId, at }],
          { role: 'assembly', id: link.userId },
          null,
          { link: link.id, purpose: link.purpose },
        ),
      );
      const row = await tx.assemblyUser.findUnique({ where: { id: link.userId }, select: PERSON });
      return row ? toPerson(row) : undefined;
    });
  }

  async changePassword(change: PasswordChange, audit: { actor: Actor }): Promise<boolean> {
    const { userId, at } = change;
    return this.prisma.$transaction(async (tx) => {
      // Conditional on the hash the current password was checked against: of two changes at once, one is stored.
      const stored = await tx.personCredential.updateMany({
        where: { userId, passwordHash: change.expectedHash },
        data: { passwordHash: change.passwordHash, updatedAt: at },
      });
      if (stored.count !== 1) return false;
      await tx.personToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: at } });
      const others = await tx.personSession.deleteMany({ where: { userId, id: { not: change.sessionId } } });
      await tx.personSession.deleteMany({ where: { id: change.sessionId } });
      await tx.personSession.create({ data: change.renewed });
      await new PrismaAuditLog(tx).append(
        auditEntriesFor('assemblyUser', [{ type: 'PasswordChanged', aggregateId: userId, at }], audit.actor, null, {
          otherSessionsEnded: others.count,
        }),
      );
      return true;
    });
  }

  async openSession(session: PersonSessionRecord): Promise<void> {
    await this.prisma.personSession.create({ data: session });
  }

  async findSession(
    id: string,
    at: Date,
    idleSince: Date,
  ): Promise<{ session: PersonSessionRecord; person: PersonRecord } | undefined> {
    const row = await this.prisma.personSession.findUnique({ where: { id }, include: { user: { select: PERSON } } });
    // A disabled user's sessions are deleted when they are disabled; refused here too, whatever is left.
    if (!row || row.expiresAt <= at || row.lastSeenAt <= idleSince || row.user.disabledAt !== null) return undefined;
    // An account awaiting confirmation cannot sign in; refused here too, whatever is left.
    if (row.user.awaitingConfirmation) return undefined;
    const { user, ...session } = row;
    return { session, person: toPerson(user) };
  }

  async rememberSignIn(key: string, at: Date): Promise<void> {
    await this.prisma.personKnownAddress.upsert({
      where: { key },
      create: { key, lastSignedInAt: at },
      update: { lastSignedInAt: at },
    });
  }

  async signedInFrom(key: string, since: Date): Promise<boolean> {
    const row = await this.prisma.personKnownAddress.findUnique({ where: { key } });
    return row !== null && row.lastSignedInAt > since;
  }

  async touchSession(id: string, at: Date): Promise<void> {
    await this.prisma.personSession.updateMany({ where: { id }, data: { lastSeenAt: at } });
  }

  async closeSession(id: string): Promise<void> {
    await this.prisma.personSession.deleteMany({ where: { id } });
  }

  async deleteEndedSessions(at: Date, idleSince: Date): Promise<number> {
    const { count } = await this.prisma.personSession.deleteMany({
      where: { OR: [{ expiresAt: { lte: at } }, { lastSeenAt: { lte: idleSince } }] },
    });
    return count;
  }

  async endAllOf(userId: string, at: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.personSession.deleteMany({ where: { userId } }),
      this.prisma.personToken.updateMany({ where: { userId, usedAt: null }, data: { usedAt: at } }),
    ]);
  }
}

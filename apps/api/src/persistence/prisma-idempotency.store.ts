import type { IdempotencyRecords, IdempotentAnswer } from '../core/ports';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** The kept answers of requests sent with an Idempotency-Key, in `idempotency_keys` (one row per actor and key). */
export class PrismaIdempotencyRecords implements IdempotencyRecords {
  constructor(private readonly prisma: PrismaClient) {}

  async find(actorId: string, key: string, at: Date): Promise<IdempotentAnswer | undefined> {
    const row = await this.prisma.idempotencyKey.findUnique({ where: { actorId_key: { actorId, key } } });
    if (!row || row.expiresAt <= at) return undefined;
    return { ...row, body: row.body ?? undefined };
  }

  async keep(answer: IdempotentAnswer): Promise<void> {
    const body = answer.body === undefined ? Prisma.DbNull : (answer.body as Prisma.InputJsonValue);
    const row = { ...answer, body };
    // An expired row under the key (not yet purged) is replaced; a live one kept meanwhile by a concurrent request
    // with the same key stays: the first answer is the one replays get.
    await this.prisma.idempotencyKey.deleteMany({
      where: { actorId: answer.actorId, key: answer.key, expiresAt: { lte: answer.createdAt } },
    });
    await this.prisma.idempotencyKey.createMany({ data: [row], skipDuplicates: true });
  }

  async purge(at: Date): Promise<number> {
    return (await this.prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lte: at } } })).count;
  }
}

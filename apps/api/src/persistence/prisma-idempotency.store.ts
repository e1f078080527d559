import type { IdempotencyClaim, IdempotencyRecords, IdempotentAnswer } from '../core/ports';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

type Row = Awaited<ReturnType<PrismaClient['idempotencyKey']['findUnique']>>;

const answerOf = (row: NonNullable<Row>): IdempotentAnswer => ({
  ...row,
  status: row.status ?? undefined,
  body: row.body ?? undefined,
});

/**
 * The kept answers of requests sent with an Idempotency-Key, in `idempotency_keys` (one row per actor and key). A
 * first try claims its key with a row whose status is null; the primary key makes the claim atomic across instances.
 */
export class PrismaIdempotencyRecords implements IdempotencyRecords {
  constructor(private readonly prisma: PrismaClient) {}

  async find(actorId: string, key: string, at: Date): Promise<IdempotentAnswer | undefined> {
    const row = await this.prisma.idempotencyKey.findUnique({ where: { actorId_key: { actorId, key } } });
    return row && row.expiresAt > at ? answerOf(row) : undefined;
  }

  async claim(claim: IdempotencyClaim, staleBefore: Date): Promise<IdempotentAnswer | undefined> {
    const { actorId, key } = claim;
    // A record that no longer holds the key (expired, not yet purged; or a claim whose try died) gives it up.
    await this.prisma.idempotencyKey.deleteMany({
      where: {
        actorId,
        key,
        OR: [{ expiresAt: { lte: claim.createdAt } }, { status: null, createdAt: { lt: staleBefore } }],
      },
    });
    const { count } = await this.prisma.idempotencyKey.createMany({
      data: [{ ...claim, status: null, body: Prisma.DbNull }],
      skipDuplicates: true,
    });
    if (count === 1) return undefined;
    // Another try holds it; if that one gave it up in between, this try is judged as new (the caller claims again).
    return (await this.find(actorId, key, claim.createdAt)) ?? this.claim(claim, staleBefore);
  }

  async answer(actorId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.prisma.idempotencyKey.updateMany({
      where: { actorId, key, status: null },
      data: { status, body: body === undefined ? Prisma.DbNull : (body as Prisma.InputJsonValue) },
    });
  }

  async release(actorId: string, key: string): Promise<void> {
    await this.prisma.idempotencyKey.deleteMany({ where: { actorId, key, status: null } });
  }

  async purge(at: Date): Promise<number> {
    return (await this.prisma.idempotencyKey.deleteMany({ where: { expiresAt: { lte: at } } })).count;
  }
}

import { auditEntriesFor, SYSTEM_ACTOR } from '@transport/domain';
import type { AssemblyMerchants } from '../core/ports';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';

/** Each assembly's merchant record in `merchants` (its `assemblyId` set, unique), made on first need. */
export class PrismaAssemblyMerchants implements AssemblyMerchants {
  constructor(private readonly prisma: PrismaClient) {}

  async merchantOf(
    assembly: { id: string; name: string },
    make: { id: string; signingSecret: string; at: Date },
  ): Promise<string> {
    const found = await this.prisma.merchant.findUnique({ where: { assemblyId: assembly.id }, select: { id: true } });
    if (found) return found.id;
    try {
      return await this.prisma.$transaction(async (tx) => {
        const name = `${assembly.name} (notices)`.slice(0, 200);
        await tx.merchant.create({
          data: {
            id: make.id,
            name,
            signingSecret: make.signingSecret,
            assemblyId: assembly.id,
            createdAt: make.at,
            updatedAt: make.at,
          },
        });
        await new PrismaAuditLog(tx).append(
          auditEntriesFor(
            'merchant',
            [{ type: 'MerchantCreated', aggregateId: make.id, at: make.at }],
            SYSTEM_ACTOR,
            null,
            {
              id: make.id,
              name,
              assembly: assembly.id,
            },
          ),
        );
        return make.id;
      });
    } catch (error) {
      // Two first payments at once: the other made it.
      const made = await this.prisma.merchant.findUnique({ where: { assemblyId: assembly.id }, select: { id: true } });
      if (made) return made.id;
      throw error;
    }
  }
}

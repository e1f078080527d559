import type { MessageSender } from '../core/ports';
import type { PrismaClient } from '../generated/prisma/client';

/**
 * The messaging port without a gateway: messages are written to `outbox_messages`, where a developer (or a test)
 * reads what a phone would have received. Used when no SMS gateway is configured.
 */
export class OutboxMessageSender implements MessageSender {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(message: { to: string; text: string }): Promise<void> {
    await this.prisma.outboxMessage.create({ data: { ...message, createdAt: this.now() } });
  }
}

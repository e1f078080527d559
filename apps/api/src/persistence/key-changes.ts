import pg from 'pg';
import { Logger } from '@nestjs/common';

/** The channel the key-change triggers notify (migration 20261124080000_api_key_change_notices). */
export const KEY_CHANGES_CHANNEL = 'api_keys_changed';

/**
 * Hears from PostgreSQL whenever an API key or an assembly user changes in a way that changes who a key
 * authenticates (revoked, expired, re-scoped, its user moved or removed), by whatever wrote it: this instance,
 * another one, the operator's `keys` command or plain SQL. One dedicated connection, `LISTEN`ing. While it is not
 * listening (not yet connected, or the connection dropped), `listening` is false, so nothing may rely on having
 * been told; every loss of the connection is reported as a change too, and it reconnects after a second.
 */
export class KeyChangeListener {
  private client?: pg.Client;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private readonly listeners = new Set<() => void>();
  private readonly log = new Logger('KeyChangeListener');
  listening = false;

  constructor(private readonly url: string) {}

  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      this.changed();
      client.end().catch(() => undefined);
      if (error) this.log.warn(`API key change notices lost (${error.message}); keys are read on every request`);
      if (!this.closed) this.retry = setTimeout(() => void this.start(), 1000).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.changed());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      this.listening = this.client === client;
    } catch (error) {
      lost(error as Error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

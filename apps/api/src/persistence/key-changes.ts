import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Logger } from '@nestjs/common';

/** The channel the key-change triggers notify (migration 20261124080000_api_key_change_notices). */
export const KEY_CHANGES_CHANNEL = 'api_keys_changed';

export interface KeyChangeListenerOptions {
  /**
   * Where changes are written (DATABASE_URL): a probe notice is sent through it once listening, and must come back to
   * the listener. Through a pooler in transaction mode it never does (the LISTEN was made in a server session that is
   * not this connection's), and the listener says so instead of waiting for notices that never arrive.
   */
  probeUrl?: string;
  /** How long the probe notice may take (default 2 s; a notice on one server takes milliseconds). */
  probeTimeoutMs?: number;
}

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
  /**
   * The probe notice never came back: notices cannot be heard through this connection (a pooler in transaction mode
   * between). Final for this listener; DATABASE_DIRECT_URL is the remedy.
   */
  unheard = false;

  constructor(
    private readonly url: string,
    private readonly options: KeyChangeListenerOptions = {},
  ) {}

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
    client.on('notification', (message) => {
      if (message.channel === KEY_CHANGES_CHANNEL) this.changed();
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
      if (this.options.probeUrl && !(await this.probe(client, this.options.probeUrl))) {
        this.unheard = true;
        this.closed = true;
        this.client = undefined;
        await client.end().catch(() => undefined);
        this.log.warn(
          'API key change notices cannot be heard through DATABASE_URL (a connection pooler in transaction mode?): ' +
            'keys are kept for at most a second. Set DATABASE_DIRECT_URL to reach PostgreSQL without the pooler.',
        );
        return;
      }
      this.listening = this.client === client;
    } catch (error) {
      lost(error as Error);
    }
  }

  /** Sends a notice on a channel of this listener's own through `url`, and waits for it to arrive here. */
  private async probe(client: pg.Client, url: string): Promise<boolean> {
    const channel = `transport_probe_${randomBytes(8).toString('hex')}`;
    await client.query(`LISTEN ${channel}`);
    let heard: () => void = () => undefined;
    const arrived = new Promise<boolean>((resolve) => {
      heard = () => resolve(true);
      setTimeout(() => resolve(false), this.options.probeTimeoutMs ?? 2000).unref();
    });
    const onNotice = (message: pg.Notification) => {
      if (message.channel === channel) heard();
    };
    client.on('notification', onNotice);
    const sender = new pg.Client({ connectionString: url });
    try {
      await sender.connect();
      await sender.query('SELECT pg_notify($1, $2)', [channel, '']);
    } finally {
      await sender.end().catch(() => undefined);
    }
    try {
      return await arrived;
    } finally {
      client.removeListener('notification', onNotice);
      await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
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

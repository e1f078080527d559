import pg from 'pg';

/**
 * How the app's connections get their per-statement settings (today: `statement_timeout`), never as startup
 * parameters: PgBouncer refuses those (`unsupported startup parameter: statement_timeout`), and a pooler told to
 * ignore them loses the setting in silence.
 *
 * - `session`: the connection is the server's own session (PostgreSQL itself, or a session-mode pooler). One
 *   `SET statement_timeout` when it connects lasts for its life, and costs nothing per statement.
 * - `transaction`: between transactions the connection may be handed to another session (PgBouncer in transaction
 *   mode, the default of most managed poolers), so only what is inside a transaction is ours. Every transaction
 *   opens with `SET LOCAL statement_timeout` (folded into its `BEGIN`: no extra round trip), and a statement sent on
 *   its own is sent inside one (`BEGIN; SET LOCAL …`, the statement, `COMMIT`). Named prepared statements (the rate
 *   limiter's, the readiness check's) are sent unnamed: a statement prepared in one server session is unknown to the
 *   next one the pooler hands out ("prepared statement ... does not exist").
 */
export type SettingsMode = 'session' | 'transaction';

/** `BEGIN` / `START TRANSACTION` at the head of a text, with whatever options follow it up to its `;`. */
const OPENS_TRANSACTION = /^(\s*(?:BEGIN|START\s+TRANSACTION)\b[^;]*)/i;
/** Statements that are about transactions or sessions themselves: never wrapped in a transaction of ours. */
const NOT_WRAPPED =
  /^\s*(BEGIN|START|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE|SET|RESET|LISTEN|UNLISTEN|DISCARD)\b/i;

type Callback = (error: Error | null, result?: unknown) => void;
/** The text of a query as pg takes it (a string or a config object); undefined for a cursor or other submittable. */
function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  if (config && typeof config === 'object' && typeof (config as { submit?: unknown }).submit !== 'function')
    return (config as { text?: string }).text;
  return undefined;
}

/** A query config without its statement name (prepared anew each time, in whatever server session runs it). */
function unnamed(config: unknown): unknown {
  if (config && typeof config === 'object' && (config as { name?: unknown }).name !== undefined)
    return { ...(config as object), name: undefined };
  return config;
}

function parametersOf(config: unknown, values: unknown): unknown[] | undefined {
  if (Array.isArray(values)) return values;
  return (config as { values?: unknown[] } | undefined)?.values;
}

/** `text` with `SET LOCAL …` right after its opening `BEGIN` (a simple-protocol text may hold several statements). */
export function withLocalSettings(text: string, statementTimeoutMs: number): string | undefined {
  if (!OPENS_TRANSACTION.test(text)) return undefined;
  return text.replace(OPENS_TRANSACTION, `$1; SET LOCAL statement_timeout = ${Math.trunc(statementTimeoutMs)}`);
}

/** A `pg.Client` class that applies the settings as `mode` says (pass it as the pool's `Client`). */
export function settingsClient(mode: SettingsMode, statementTimeoutMs: number): typeof pg.Client {
  const timeout = Math.trunc(statementTimeoutMs);

  class SessionSettingsClient extends pg.Client {
    // Both of pg's forms: a promise (of the client), or a callback (what pg-pool uses).
    override connect(...args: unknown[]): never {
      const callback = args[0] as ((error: Error | null, client?: pg.Client) => void) | undefined;
      const connected = (super.connect as () => Promise<unknown>)()
        .then(() => super.query(`SET statement_timeout = ${timeout}`))
        .then(() => this);
      if (!callback) return connected as never;
      connected.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
      return undefined as never;
    }
  }

  class TransactionSettingsClient extends pg.Client {
    /** Queries handed to this client and not yet answered: while any is, a new one joins whatever they opened. */
    private inFlight = 0;

    // pg's query has many overloads (promise, callback, config object, submittable); all pass through here.
    override query(...args: unknown[]): never {
      const text = textOf(args[0]);
      if (text === undefined) return (super.query as (...a: unknown[]) => never)(...args);
      const callback = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as Callback) : undefined;
      const run = (...a: unknown[]) => (super.query as (...q: unknown[]) => Promise<unknown>)(...a);
      const [config, values] = (callback ? args.slice(0, -1) : args) as [unknown, unknown?];
      const answered = this.withSettings(run, [unnamed(config), values], text);
      if (!callback) return answered as never;
      answered.then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
      return undefined as never;
    }

    private async withSettings(
      run: (...a: unknown[]) => Promise<unknown>,
      [config, values]: [unknown, unknown?],
      text: string,
    ): Promise<unknown> {
      const parameters = parametersOf(config, values);
      // A transaction of someone else's (Prisma's, pg-boss's): the setting goes in with its BEGIN, in the same text.
      const opened = !parameters?.length ? withLocalSettings(text, timeout) : undefined;
      const alone = this.inFlight === 0 && this.getTransactionStatus() === 'I' && !NOT_WRAPPED.test(text);
      this.inFlight++;
      try {
        if (opened !== undefined)
          return await run(typeof config === 'string' ? opened : { ...(config as object), text: opened }, values);
        if (!alone) return await run(config, values);
        // On its own: inside a transaction of ours.
        await run(`BEGIN; SET LOCAL statement_timeout = ${timeout}`);
        let result: unknown;
        try {
          result = await run(config, values);
        } catch (error) {
          await run('ROLLBACK').catch(() => undefined);
          throw error;
        }
        await run('COMMIT');
        return result;
      } finally {
        this.inFlight--;
      }
    }
  }

  return mode === 'session' ? SessionSettingsClient : TransactionSettingsClient;
}

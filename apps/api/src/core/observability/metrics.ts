import { createServer, type Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobWorkers, PaymentMetricsSource } from '../ports';

/** What the database gauges read at scrape time: each answers or throws (a timeout included). */
export interface DatabaseProbes {
  /** A real query on the primary. */
  primary(): Promise<void>;
  /** The replica's replay delay in seconds (0 when it has replayed all it received), when DATABASE_READ_URL is set. */
  replicaLagSeconds?(): Promise<number>;
}

/** Pending transactions older than each of these (seconds): cumulative, like histogram buckets. */
const PENDING_AGE_BUCKETS_SECONDS = [0, 60, 300, 900, 3600, 86_400];

/**
 * The service's Prometheus metrics, with prom-client: Node's process metrics, HTTP request durations by route and
 * status, counters of the events this instance handled (Prometheus sums them across instances), and gauges read at
 * scrape time from indexed counts and the job queue's cached sizes.
 *
 * One registry per app (not prom-client's global one), so several apps in one process (tests) do not collide.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly events: Counter<'event' | 'outcome'>;
  private readonly smsParts: Counter<'encoding'>;

  constructor(sources: {
    payments: PaymentMetricsSource;
    jobs: JobWorkers;
    now: () => Date;
    database?: DatabaseProbes;
  }) {
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route (the route template, never the raw path), method and status.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.smsParts = new Counter({
      name: 'transport_sms_parts_total',
      help: 'SMS parts handed to the gateway (what the provider bills), by encoding: gsm7 (160/153 characters a part) or ucs2 (70/67).',
      labelNames: ['encoding'],
      registers: [this.registry],
    });
    this.events = new Counter({
      name: 'transport_events_total',
      help: 'Events this instance handled (payment callbacks, notification attempts, status checks, job failures), by outcome.',
      labelNames: ['event', 'outcome'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'transport_pending_transactions',
      help: 'Open (requesting or pending) transactions older than older_than_seconds (cumulative).',
      labelNames: ['older_than_seconds'],
      registers: [this.registry],
      async collect() {
        const now = sources.now().getTime();
        // Read from the database: while it does not answer, no sample (transport_database_up says why), and the
        // scrape itself still succeeds.
        this.reset();
        const counts = await Promise.all(
          PENDING_AGE_BUCKETS_SECONDS.map((s) => sources.payments.pendingOlderThan(new Date(now - s * 1000))),
        ).catch(() => undefined);
        if (counts)
          PENDING_AGE_BUCKETS_SECONDS.forEach((s, i) => this.set({ older_than_seconds: String(s) }, counts[i]));
      },
    });
    new Gauge({
      name: 'transport_notifications_pending',
      help: 'Merchant notifications not yet delivered and still being retried.',
      registers: [this.registry],
      async collect() {
        // NaN, not 0, while the database does not answer: unknown is not "none".
        this.set(await sources.payments.notificationsPending().catch(() => Number.NaN));
      },
    });
    new Gauge({
      name: 'transport_job_queue_jobs',
      help: 'Jobs in each background queue by state (ready: runnable now; deferred: scheduled later).',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const queue of await sources.jobs.depth().catch(() => [])) {
          for (const state of ['ready', 'deferred', 'active', 'failed'] as const)
            this.set({ queue: queue.name, state }, queue[state]);
        }
      },
    });
    if (sources.database) this.databaseGauges(sources.database);
  }

  /** The database's own gauges: whether each side answers, and how far the replica's replay is behind. */
  private databaseGauges(database: DatabaseProbes): void {
    new Gauge({
      name: 'transport_database_up',
      help: 'Whether the database answered a query at scrape time (1) or not (0), by role: primary, and replica when DATABASE_READ_URL is set.',
      labelNames: ['role'],
      registers: [this.registry],
      async collect() {
        const answers = (probe: () => Promise<unknown>) =>
          probe().then(
            () => 1,
            () => 0,
          );
        this.set({ role: 'primary' }, await answers(() => database.primary()));
        const replica = database.replicaLagSeconds?.bind(database);
        if (replica) this.set({ role: 'replica' }, await answers(replica));
      },
    });
    if (!database.replicaLagSeconds) return;
    const lag = database.replicaLagSeconds.bind(database);
    new Gauge({
      name: 'transport_database_replica_lag_seconds',
      help: 'How far the read replica (DATABASE_READ_URL) is behind: the age of the last transaction it replayed, 0 when it has replayed all it received.',
      registers: [this.registry],
      async collect() {
        this.set(await lag().catch(() => Number.NaN));
      },
    });
  }

  /** Counts one event (the EventLog's events), labelled with its outcome when it has one. */
  /** Counts the parts of one text message handed to the gateway. */
  countSmsParts(encoding: string, parts: number): void {
    this.smsParts.inc({ encoding }, parts);
  }

  countEvent(event: string, outcome: string | undefined): void {
    this.events.inc({ event, outcome: outcome ?? '' });
  }

  /**
   * Times one answered request (from the pipeline's onResponse hook: core/http/http-pipeline.ts), with Fastify's own
   * measure of it. The label is the matched route's template (a registration shed at the door was routed before it was
   * refused, so it is named too), or `unmatched`.
   */
  observe(request: FastifyRequest, reply: FastifyReply): void {
    this.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  }

  /** The scrape endpoint on its own port (METRICS_PORT): no API key, kept off the public listener. */
  async listen(port: number, host: string): Promise<Server> {
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
        return;
      }
      this.registry.metrics().then(
        (text) => response.writeHead(200, { 'Content-Type': this.registry.contentType }).end(text),
        (error: Error) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  }
}

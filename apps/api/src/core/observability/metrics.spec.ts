import { fastify } from 'fastify';
import request from 'supertest';
import type { QueueDepth } from '../ports';
import { Metrics, type DatabaseProbes } from './metrics';

function subject(queues: QueueDepth[] = [], database?: DatabaseProbes) {
  const now = new Date('2026-11-22T10:00:00Z');
  return new Metrics({
    database,
    payments: {
      // Two open transactions, both between one and five minutes old.
      pendingOlderThan: async (cutoff) => (cutoff.getTime() >= now.getTime() - 60_000 ? 2 : 0),
      notificationsPending: async () => 3,
    },
    jobs: { running: true, start: async () => undefined, stop: async () => undefined, depth: async () => queues },
    now: () => now,
  });
}

/** One sample's value from the text exposition. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('Metrics', () => {
  it('declares counters as counters and gauges as gauges, with process metrics beside them', async () => {
    const text = await subject().registry.metrics();
    expect(text).toContain('# TYPE transport_events_total counter');
    expect(text).toContain('# TYPE transport_pending_transactions gauge');
    expect(text).toContain('# TYPE transport_job_queue_jobs gauge');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('reads the gauges at scrape time: pending transactions by age, notifications, queue depth', async () => {
    const metrics = subject([{ name: 'payment-notify', ready: 4, deferred: 7, active: 1, failed: 0 }]);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'transport_pending_transactions{older_than_seconds="0"}')).toBe(2);
    expect(sample(text, 'transport_pending_transactions{older_than_seconds="60"}')).toBe(2);
    expect(sample(text, 'transport_pending_transactions{older_than_seconds="300"}')).toBe(0);
    expect(sample(text, 'transport_notifications_pending')).toBe(3);
    expect(sample(text, 'transport_job_queue_jobs{queue="payment-notify",state="ready"}')).toBe(4);
    expect(sample(text, 'transport_job_queue_jobs{queue="payment-notify",state="deferred"}')).toBe(7);
  });

  it('reports whether the primary and the replica answer, and how far the replica is behind', async () => {
    const text = await subject([], {
      primary: async () => undefined,
      replicaLagSeconds: async () => 2.5,
    }).registry.metrics();
    expect(sample(text, 'transport_database_up{role="primary"}')).toBe(1);
    expect(sample(text, 'transport_database_up{role="replica"}')).toBe(1);
    expect(sample(text, 'transport_database_replica_lag_seconds')).toBe(2.5);
    const primaryOnly = await subject([], { primary: async () => undefined }).registry.metrics();
    expect(primaryOnly).not.toContain('role="replica"');
    expect(primaryOnly).not.toContain('transport_database_replica_lag_seconds ');
  });

  it('still answers the scrape while the database does not, saying so instead of the gauges it cannot read', async () => {
    const down = async () => {
      throw new Error('connection refused');
    };
    const metrics = new Metrics({
      payments: { pendingOlderThan: down, notificationsPending: down },
      jobs: { running: true, start: async () => undefined, stop: async () => undefined, depth: down },
      now: () => new Date(),
      database: { primary: down, replicaLagSeconds: down },
    });
    const text = await metrics.registry.metrics();
    expect(sample(text, 'transport_database_up{role="primary"}')).toBe(0);
    expect(sample(text, 'transport_database_up{role="replica"}')).toBe(0);
    expect(text).not.toMatch(/^transport_pending_transactions\{/m);
    expect(text).toMatch(/^transport_notifications_pending NaN$/im);
    expect(text).toMatch(/^transport_database_replica_lag_seconds NaN$/im);
  });

  it('counts events by outcome, only ever upwards', async () => {
    const metrics = subject();
    metrics.countEvent('payment.callback', 'applied');
    metrics.countEvent('payment.callback', 'applied');
    metrics.countEvent('job.failed', undefined);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'transport_events_total{event="payment.callback",outcome="applied"}')).toBe(2);
    expect(sample(text, 'transport_events_total{event="job.failed",outcome=""}')).toBe(1);
  });

  it('labels request durations with the route template, never the raw path (ids would explode the series)', async () => {
    const metrics = subject();
    const app = fastify();
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observe(request, reply);
      done();
    });
    app.get('/vehicles/:id', async () => ({}));
    await app.ready();
    await request(app.server).get('/vehicles/64b7f0f1a2b3c4d5e6f70809').expect(200);
    await request(app.server).get('/vehicles/64b7f0f1a2b3c4d5e6f7080a').expect(200);
    await request(app.server).get('/nowhere').expect(404);
    await app.close();
    const text = await metrics.registry.metrics();
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/vehicles/:id",status_code="200"}'),
    ).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBe(
      1,
    );
    expect(text).not.toContain('64b7f0f1a2b3c4d5e6f70809');
  });

  it('serves the scrape on its own port: GET /metrics in Prometheus text, anything else 404', async () => {
    const server = await subject().listen(0, '127.0.0.1');
    try {
      const scrape = await request(server).get('/metrics').expect(200);
      expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(scrape.text).toContain('transport_notifications_pending 3');
      await request(server).get('/').expect(404);
      await request(server).post('/metrics').expect(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

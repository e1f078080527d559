import pg from 'pg';
import request from 'supertest';
import { createApp, type RunningApp } from '../src/app';
import { Metrics } from '../src/core/observability/metrics';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { eventually } from './support/http-peers';
import {
  createCluster,
  createReplica,
  describeWithPrograms,
  postgresBin,
  type LocalCluster,
} from './support/local-servers';
import { openTierStore, type TierStore } from './support/test-app';

async function sql<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

// A primary and a hot standby that follows it by streaming replication (pg_basebackup -R), both clusters of the
// test's own on free ports. The app writes to the primary (DATABASE_URL) and reads list pages, searches and exports
// from the standby (DATABASE_READ_URL). Pausing the standby's replay makes the difference visible: what the app reads
// from it stays as it was, what it reads from the primary does not.
describeWithPrograms('a read replica kept by streaming replication', { 'postgresql server': postgresBin() }, () => {
  let primary: LocalCluster;
  let replica: LocalCluster;
  let tier: TierStore;
  let app: RunningApp;
  let f: ApiFixture;
  const http = () => request(app.app.getHttpServer());

  /** Until the standby has replayed everything the primary has written so far. */
  async function caughtUp(): Promise<void> {
    const [{ lsn }] = await sql<{ lsn: string }>(primary.url(), 'SELECT pg_current_wal_lsn()::text AS lsn');
    await eventually(async () => {
      const [{ behind }] = await sql<{ behind: boolean }>(
        replica.url(),
        `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
      );
      expect(behind).toBe(false);
    });
  }

  beforeAll(async () => {
    primary = await createCluster('primary');
    await sql(primary.url(), 'CREATE DATABASE transport');
    replica = await createReplica('replica', primary);
    tier = await openTierStore('postgresql');
    app = await createApp(
      tier.config({
        databaseUrl: primary.url('transport'),
        databaseReadUrl: replica.url('transport'),
        jobs: { ...tier.config().jobs, workers: false },
      }),
    );
    f = await loadApiFixture(app.database);
    await caughtUp();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await tier?.dispose();
    await replica?.stop();
    await primary?.stop();
  });

  afterEach(async () => {
    await sql(replica.url(), 'SELECT pg_wal_replay_resume()');
  });

  it('reads list pages from the replica', async () => {
    expect(await sql(replica.url('transport'), 'SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: true }]);
    // A row only the replica has (it cannot be written there: a standby is read-only) is impossible; so the primary
    // gets a row while the standby's replay is paused, and the list does not show it until replay resumes.
    await sql(replica.url(), 'SELECT pg_wal_replay_pause()');
    await sql(
      primary.url('transport'),
      `UPDATE vehicles SET color = 'Replica test' WHERE id = '${f.ids.freshVehicle}'`,
    );
    const listed = async () =>
      (await http().get(`/vehicles/all?limit=100`).set('Authorization', f.keys.admin).expect(200)).body.find(
        (v: { _id: string }) => v._id === f.ids.freshVehicle,
      ).color;
    expect(await listed()).not.toBe('Replica test');
    // The scrape says the replica answers and is behind.
    await eventually(async () => {
      const text = await app.app.get(Metrics).registry.metrics();
      expect(text).toContain('transport_database_up{role="replica"} 1');
      expect(Number(/^transport_database_replica_lag_seconds (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    });
    // The record's own page reads the primary.
    const own = await http().get(`/vehicles/${f.ids.freshVehicle}`).set('Authorization', f.keys.admin).expect(200);
    expect(own.body.color).toBe('Replica test');
    await sql(replica.url(), 'SELECT pg_wal_replay_resume()');
    await eventually(async () => expect(await listed()).toBe('Replica test'));
  });

  it("answers a change from the primary, and shows it on the record's page at once; lists, searches and exports follow the replica", async () => {
    await sql(replica.url(), 'SELECT pg_wal_replay_pause()');
    const owner = await http()
      .post('/vehicles/owner/add')
      .set('Authorization', f.keys.admin)
      .send({
        name: 'Adjoa Replica',
        phone: '0244777123',
        email: 'adjoa.replica@example.com',
        idType: 'ghana_card',
        idNumber: 'GHA-REPLICA-1',
        assembly: f.ids.assembly,
      })
      .expect(201);
    const vehicle = await http()
      .post('/vehicles/add')
      .set('Authorization', f.keys.admin)
      .send({ ownerID: owner.body._id, registrationNumber: 'GR 9-26' })
      .expect(201);
    expect(vehicle.body).toMatchObject({ registrationNumber: 'GR 9-26', ownerID: owner.body._id });
    // Its own page: from the primary, at once.
    await http().get(`/vehicles/${vehicle.body._id}`).set('Authorization', f.keys.admin).expect(200);
    // The list, the search and the CSV export: from the replica, which has not replayed them yet.
    const byNumber = () =>
      http().get('/vehicles/all?registrationNumber=GR%209-26').set('Authorization', f.keys.admin).expect(200);
    const search = () =>
      http().get('/vehicles/owner/search?query=Adjoa%20Replica').set('Authorization', f.keys.admin).expect(200);
    const csv = () =>
      http()
        .get('/vehicles/all?registrationNumber=GR%209-26')
        .set('Authorization', f.keys.admin)
        .set('Accept', 'text/csv')
        .expect(200);
    expect((await byNumber()).body).toEqual([]);
    expect((await search()).body).toEqual([]);
    expect((await csv()).text).not.toContain('GR 9-26');
    await sql(replica.url(), 'SELECT pg_wal_replay_resume()');
    await eventually(async () => {
      expect((await byNumber()).body).toHaveLength(1);
      expect((await search()).body).toHaveLength(1);
      expect((await csv()).text).toContain('GR 9-26');
    });
  });

  it('authenticates keys and answers payment status checks from the primary, whatever the replica has', async () => {
    await sql(replica.url(), 'SELECT pg_wal_replay_pause()');
    const issued = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'merchant', principal: f.ids.merchantA })
      .expect(201);
    const key = issued.body.key as string;
    await http().get('/payment/check_transaction?reference=REF-PAID').set('Authorization', key).expect(200);
  });
});

import { createApiClient, nextCursor, type ApiClient, type Problem } from '@transport/api-client';
import type { RunningApp } from '../src/app';
import { allPassed } from '@transport/domain/testing';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { startListeningApp } from './support/http-peers';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, type TierStore } from './support/test-app';

// The vehicles feature driven through the generated TypeScript client (libs/api-client: openapi-fetch over the types
// openapi-typescript makes from the committed OpenAPI document), over real HTTP: what a client team gets.
describeOnPostgres('the generated API client, on the vehicles feature', () => {
  let store: TierStore;
  let running: RunningApp & { url: string };
  let f: ApiFixture;
  let admin: ApiClient;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    running = await startListeningApp(store.config());
    f = await loadApiFixture(running.database);
    admin = createApiClient({ baseUrl: running.url, apiKey: f.keys.admin });
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it('pages through the vehicle list with the Link header the contract declares', async () => {
    const first = await admin.GET('/vehicles/all', { params: { query: { limit: 25 } } });
    expect(first.response.status).toBe(200);
    expect(first.data).toHaveLength(25);
    const after = nextCursor(first.response);
    expect(after).toBe(first.data?.[24]._id);
    const second = await admin.GET('/vehicles/all', { params: { query: { limit: 25, after } } });
    expect(second.data?.[0]._id).not.toBe(first.data?.[0]._id);
    const ids = new Set([...(first.data ?? []), ...(second.data ?? [])].map((v) => v._id));
    expect(ids.size).toBe(50);
  });

  it('registers, inspects and approves a vehicle, each answer typed as the contract says', async () => {
    const added = await admin.POST('/vehicles/add', {
      body: {
        ownerID: f.ids.owners[0],
        registrationNumber: 'gt 4242-26',
        color: '#112233',
        make: 'Toyota',
        model: 'Corolla',
        makeYear: '2020-01-01',
        capacity: 4,
        grossWeight: 1600,
        netWeight: 1200,
        type: 'taxi',
        fuelCapacity: 50,
        roadWorthyExpiryDate: '2027-06-30',
        insuranceExpiryDate: '2027-06-30',
      },
    });
    expect([added.response.status, added.error]).toEqual([201, undefined]);
    const id = added.data!._id;
    expect(added.data).toMatchObject({ registrationNumber: 'GT 4242-26', inspected: false, approved: false });
    // The assembly takes on an inspector and gives them a key, through the same client; the inspector inspects and
    // the approver approves (never the same person).
    const user = await admin.POST('/assembly/users/add', {
      body: {
        assembly: f.ids.assembly,
        name: 'Yaw Boateng',
        email: 'yaw.boateng@ama.gov.gh',
        phone: '0244000999',
        role: 'inspector',
      },
    });
    expect(user.error).toBeUndefined();
    const issued = await admin.POST('/admin/keys', { body: { role: 'assembly', principal: user.data!._id } });
    expect(issued.response.headers.get('Cache-Control')).toBe('no-store');
    const inspector = createApiClient({ baseUrl: running.url, apiKey: issued.data!.key });
    const inspected = await inspector.POST('/vehicles/{id}/inspect', {
      params: { path: { id } },
      body: { inspectionChecklist: allPassed() },
    });
    expect(inspected.error).toBeUndefined();
    expect(inspected.data).toMatchObject({ inspected: true, inspectedBy: user.data!._id });
    const approver = createApiClient({ baseUrl: running.url, apiKey: f.keys.assembly });
    const approved = await approver.POST('/vehicles/{id}/approve', { params: { path: { id } } });
    expect(approved.data).toMatchObject({ _id: id, approved: true });
    const fetched = await admin.GET('/vehicles/{id}', { params: { path: { id } } });
    expect(fetched.data).toMatchObject({ _id: id, inspected: true, approved: true });
  });

  it('gives refusals as typed problems, naming the request they answer', async () => {
    const missing = await admin.GET('/vehicles/{id}', {
      params: { path: { id: '65a0000000000000000000ee' }, header: { 'X-Request-Id': 'client-test-1' } },
    });
    expect(missing.response.status).toBe(404);
    const problem: Problem | undefined = missing.error;
    expect(problem).toMatchObject({ code: 'NOT_FOUND', status: 404, instance: 'urn:transport:request:client-test-1' });
    expect(missing.response.headers.get('X-Request-Id')).toBe('client-test-1');

    const anonymous = createApiClient({ baseUrl: running.url });
    const refused = await anonymous.POST('/vehicles/{id}/approve', { params: { path: { id: f.ids.freshVehicle } } });
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { hostileValue, HOSTILE_STRINGS, nested, Rng, ValueMaker, type Schema } from './support/fuzz-inputs';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, startTestApp, WORKSPACE_ROOT, type TierStore } from './support/test-app';

/**
 * The fuzz tier: every operation of the committed OpenAPI document, called by every role with inputs made from its
 * schemas and then broken (wrong types, nulls, control characters, extreme numbers and dates, bad ids, deep nesting,
 * wrong content types). Whatever the input, the service answers: never a 5xx, only a status the document declares
 * for the operation, a problem+json body on every 4xx, and a 2xx body its declared schema accepts (nulls only where
 * the document declares them, read as OpenAPI 3.0.3 reads `nullable`); and it stays up. Each operation and role also
 * gets a request with only the inputs the document declares required: a 400/422 wanting an optional one is a finding.
 * FUZZ_SEED=<n> replays a run (the seed is printed); FUZZ_CASES=<n> sets the mutated requests per operation and role.
 * Bounded in time: past FUZZ_BUDGET_S seconds of requests, each remaining operation and role gets one mutated request
 * (each draws from its own generator, so what does run is what the same seed runs without the bound).
 */

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CASES = Number(process.env.FUZZ_CASES ?? 5);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_S ?? 40) * 1000;
const PROBLEM = /^application\/problem\+json/;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
}

/** What a request is made as (see build). */
type Mode = 'valid' | 'mutated' | 'required';

/** Stands for the record's revision as stored when the request is sent (a valid If-Match). */
const CURRENT_REVISION = '<current revision>';

const DOCUMENT = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'apps', 'api', 'openapi.json'), 'utf8')) as Document;

/** Who calls: headers that make the request theirs (and, for a session, its CSRF token on changes). */
interface Role {
  name: string;
  headers: Record<string, string>;
}

/** One request as sent, enough to replay it by hand. */
interface Sent {
  role: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  mutation: string;
}

describeOnPostgres('fuzz: every operation, every role, valid and hostile input', () => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  let base: string;
  const roles: Role[] = [];
  const idsByPath: Record<string, string[]> = {};
  let regionId = '';
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  async function session(userId: string, email: string, phone: string): Promise<Role['headers']> {
    const http = request(running.app.getHttpServer());
    await http.post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: userId }).expect(202);
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: phone },
      orderBy: { id: 'desc' },
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    const password = `fuzzing-password-${SEED}`;
    await request(running.app.getHttpServer()).post('/auth/password').send({ token, password }).expect(204);
    const signedIn = await request(running.app.getHttpServer())
      .post('/auth/sign-in')
      .send({ email, password })
      .expect(200);
    const cookie = (signedIn.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    return { Cookie: cookie, 'X-CSRF-Token': signedIn.body.csrfToken };
  }

  beforeAll(async () => {
    process.stdout.write(`fuzz: FUZZ_SEED=${SEED} FUZZ_CASES=${CASES} FUZZ_BUDGET_S=${BUDGET_MS / 1000}\n`);
    process.on('unhandledRejection', onCrash);
    process.on('uncaughtException', onCrash);
    store = await openTierStore('postgresql');
    running = await startTestApp(store.config());
    f = await loadApiFixture(running.database);
    const server = running.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const platform = await request(server)
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'platform', principal: '65a0000000000000000000c1' })
      .expect(201);
    const staffAdmin = await request(server)
      .post('/assembly/users/add')
      .set('Authorization', f.keys.admin)
      .send({
        assembly: f.ids.assembly,
        name: 'Efua Admin',
        email: 'efua@ama.gov.gh',
        phone: '0244000999',
        role: 'admin',
      })
      .expect(201);
    roles.push(
      { name: 'anonymous', headers: {} },
      { name: 'admin', headers: { Authorization: f.keys.admin } },
      { name: 'assembly approver key', headers: { Authorization: `Bearer ${f.keys.assembly}` } },
      { name: 'other assembly inspector key', headers: { Authorization: f.keys.otherAssembly } },
      { name: 'merchant', headers: { Authorization: f.keys.merchantA } },
      { name: 'platform', headers: { Authorization: platform.body.key } },
      { name: 'revoked key', headers: { Authorization: f.keys.revoked } },
      {
        name: 'approver session',
        headers: await session(f.ids.assemblyUser, 'abena@ama.gov.gh', '+233244000111'),
      },
      {
        name: 'assembly admin session',
        headers: await session(staffAdmin.body._id, 'efua@ama.gov.gh', '+233244000999'),
      },
    );
    const { prisma } = running.database;
    const trips = await prisma.trip.findMany({ select: { id: true } });
    const regions = await prisma.region.findMany({ select: { id: true } });
    regionId = regions[0].id;
    Object.assign(idsByPath, {
      '/vehicles/{id}': [f.ids.linkedVehicle, f.ids.freshVehicle],
      '/vehicles/owner/{id}': f.ids.owners,
      '/drivers/{id}': [f.ids.workingDriver],
      '/trips/{id}': trips.map((t) => t.id),
      '/assembly/regions/{id}': regions.map((r) => r.id),
      '/assembly/users/{id}': [f.ids.assemblyUser, f.ids.otherAssemblyUser],
      '/assembly/{id}': [f.ids.assembly, f.ids.otherAssembly],
      '/stations/{id}': [f.ids.station],
      '/unions/{id}': [f.ids.union],
      '/payment/merchants/{id}': [f.ids.merchantA, f.ids.merchantB],
    });
    // The newest vehicle, first in every list of vehicles, has had its station unlinked (`station: null`) and has its
    // insurance ending tomorrow (first in the compliance list too): those lists' 2xx bodies carry the null whatever
    // the seed picks (a request with only the required inputs asks for the first page).
    const newest = (await request(server).get('/vehicles/all?limit=1').set('Authorization', f.keys.admin).expect(200))
      .body[0]._id as string;
    await prisma.vehicle.update({
      where: { id: newest },
      data: { insuranceExpiryDate: new Date(Date.now() + 24 * 3600_000) },
    });
    for (const station of [f.ids.station, null])
      await request(server)
        .post(`/vehicles/${newest}/link`)
        .set('Authorization', f.keys.admin)
        .send({ station })
        .expect(200);
    const compliance = await request(server).get('/vehicles/compliance').set('Authorization', f.keys.admin).expect(200);
    expect(compliance.body[0].vehicle).toMatchObject({ _id: newest, station: null });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
    await running?.close();
    await store?.dispose();
  });

  it(
    'answers every request with a declared status, problem+json on 4xx, a valid 2xx body (nulls only where declared), takes only the required inputs, and stays up',
    async () => {
      const started = Date.now();
      // One generator per operation and role, from the seed: a failure replays alone, whatever ran before it.
      let rng = new Rng(SEED);
      let maker = new ValueMaker(DOCUMENT.components.schemas, rng);
      const ajv = new Ajv({ strict: false, allErrors: false });
      addFormats(ajv);
      ajv.addSchema({ components: rewriteRefs(DOCUMENT.components) } as object, 'openapi.json');
      const validators = new Map<Schema, ValidateFunction>();
      const validatorOf = (schema: Schema) => {
        let v = validators.get(schema);
        if (!v) {
          v = ajv.compile(rewriteRefs(schema) as object);
          validators.set(schema, v);
        }
        return v;
      };

      const operations = Object.entries(DOCUMENT.paths)
        .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })))
        // Signing out ends the sessions the other operations are called with: last.
        .sort((a, b) => Number(a.path === '/auth/sign-out') - Number(b.path === '/auth/sign-out'));

      const findings = new Map<string, Sent & { status: number; detail: string }>();
      let sent = 0;
      const succeeded = new Set<string>();
      let shortened = 0;

      /**
       * One request: `valid` (every required input and some optional ones), `mutated` (then broken one way), or
       * `required` (only what the document declares required, from the fixture's second records where the fixture has
       * two: a pending transaction, whose deliveries have no notification yet).
       */
      const build = (path: string, method: string, op: Operation, role: Role, mode: Mode): Sent => {
        const mutate = mode === 'mutated';
        const parameters = (op.parameters ?? []).map((p) =>
          p.$ref ? DOCUMENT.components.parameters[p.$ref.split('/').pop()!] : p,
        );
        const query: Array<[string, string]> = [];
        const headers: Record<string, string> = { ...role.headers };
        let url = path;
        const values = new Map<Parameter, string>();
        for (const p of parameters) {
          if (p.name === 'X-Request-Id') continue;
          if (p.in === 'path') values.set(p, rng.pick(recordsAt(path) ?? [`65a${rng.hex(21)}`]));
          else if (p.required || (mode !== 'required' && rng.chance(0.4)))
            values.set(p, String(validParameter(p, maker, mode === 'required')));
        }
        let body: unknown;
        const content = op.requestBody?.content['application/json'];
        if (content && mode === 'required')
          body = fixBody(maker.makeRequired(content.schema) as Record<string, unknown>, rng);
        else if (content) body = fixBody(maker.make(content.schema) as Record<string, unknown>, rng);
        let contentType = content ? 'application/json' : undefined;
        let raw: string | undefined;
        let mutation = mode === 'required' ? 'only the required inputs' : 'valid';

        if (mutate) {
          const choices = [
            ...(parameters.length ? ['parameter', 'parameter', 'parameter'] : []),
            ...(body !== undefined ? ['field', 'field', 'field', 'body', 'content-type', 'raw'] : []),
            ...(body === undefined ? ['stray-body'] : []),
            'header',
            'query-extra',
          ];
          const kind = rng.pick(choices);
          if (kind === 'parameter') {
            const p = rng.pick(parameters.filter((x) => x.name !== 'X-Request-Id').concat(parameters));
            // An empty path segment makes another URL (no route), not a bad value of this one.
            const value = rng.pick(HOSTILE_STRINGS.filter((v) => p.in !== 'path' || v !== ''));
            if (p.name === 'X-Request-Id' || p.in === 'header') headers[p.name] = headerSafe(value);
            else values.set(p, value);
            mutation = `${p.in} ${p.name} = ${JSON.stringify(value).slice(0, 60)}`;
          } else if (kind === 'field' && body && typeof body === 'object' && !Array.isArray(body)) {
            const schema = maker.resolve(content!.schema);
            const keys = Object.keys(schema.properties ?? {});
            const key = rng.pick(keys.length ? keys : ['unknownField']);
            const how = rng.int(4);
            const record = body as Record<string, unknown>;
            if (how === 0) {
              delete record[key];
              mutation = `body without ${key}`;
            } else if (how === 1) {
              record[key] = nested(40);
              mutation = `body ${key} nested 40 deep`;
            } else {
              record[key] = hostileValue(rng);
              mutation = `body ${key} = ${JSON.stringify(record[key])?.slice(0, 60)}`;
            }
            if (rng.chance(0.2)) {
              record[rng.pick(['__proto__', 'constructor', 'unknownField', '$where'])] = { polluted: true };
              mutation += ' + an unknown field';
            }
          } else if (kind === 'body') {
            body = hostileValue(rng);
            mutation = `body = ${JSON.stringify(body)?.slice(0, 60)}`;
          } else if (kind === 'content-type') {
            contentType = rng.pick([
              'text/plain',
              'application/x-www-form-urlencoded',
              'application/xml',
              'multipart/form-data; boundary=x',
              'application/json; charset=latin1',
              'application/merge-patch+json',
              '',
            ]);
            mutation = `content type ${JSON.stringify(contentType)}`;
          } else if (kind === 'raw') {
            raw = rng.pick([
              '{"a":',
              '',
              'null',
              '"string"',
              `${'['.repeat(5000)}${']'.repeat(5000)}`,
              JSON.stringify({ pad: 'x'.repeat(200_000) }),
              '{"a":1,"a":2}',
              '\u0000',
              '{"__proto__":{"admin":true}}',
            ]);
            mutation = `raw body ${JSON.stringify(raw.slice(0, 40))} (${raw.length} chars)`;
          } else if (kind === 'stray-body') {
            // A body where the operation takes none: ignored or refused, never a 5xx.
            contentType = rng.pick(['application/json', 'text/plain', 'application/xml']);
            raw = rng.pick(['{"unexpected":true}', 'x'.repeat(200_000), '\u0000', '{"a":']);
            mutation = `stray ${contentType} body ${JSON.stringify(raw.slice(0, 30))} (${raw.length} chars)`;
          } else if (kind === 'header') {
            const [name, value] = rng.pick([
              ['Accept', 'text/csv'],
              ['Accept', 'application/xml'],
              ['Authorization', 'Bearer '],
              ['Authorization', 'Basic dXNlcjpwYXNz'],
              ['Authorization', `Bearer ${'k'.repeat(2000)}`],
              ['Cookie', `tp_session=${'A'.repeat(43)}`],
              ['Cookie', 'tp_session=%00'],
              ['If-Match', '"abc"'],
              ['If-Match', '99999999999999999999999'],
              ['If-Match', '-1'],
              ['If-Match', '*'],
              ['X-Request-Id', 'has spaces and \u00e9'],
              ['X-CSRF-Token', 'forged'],
              ['X-Forwarded-For', '1.2.3.4, ::1, garbage'],
            ] as const);
            headers[name] = value;
            mutation = `header ${name}: ${value.slice(0, 40)}`;
          } else {
            const [name, value] = rng.pick([
              ['limit', '1'],
              ['limit[x]', '1'],
              ['count', 'true'],
              ['after', `65a${rng.hex(21)}`],
              ['unknown', '1'],
            ] as const);
            query.push([name, value]);
            mutation = `extra query ${name}=${value}`;
          }
        }

        for (const [p, value] of values) {
          if (p.in === 'path') url = url.replace(`{${p.name}}`, urlEncoded(value));
          else if (p.in === 'query') query.push([p.name, value]);
          else if (p.in === 'header') headers[p.name] ??= headerSafe(value);
        }
        url = url.replace(/\{(\w+)\}/g, () => `65a${rng.hex(21)}`);
        if (query.length) url += `?${query.map(([k, v]) => `${k}=${urlEncoded(v)}`).join('&')}`;
        let payload: string | undefined;
        if (raw !== undefined) payload = raw;
        else if (body !== undefined) payload = JSON.stringify(body);
        if (payload !== undefined && contentType) headers['Content-Type'] = contentType;
        return { role: role.name, method: method.toUpperCase(), url, headers, body: payload, mutation };
      };

      const check = async (sentRequest: Sent, op: Operation, path: string) => {
        sent++;
        const res = await send(base, sentRequest);
        const text = res.text;
        const status = res.status;
        if (status >= 200 && status < 300) succeeded.add(`${sentRequest.method} ${path}`);
        const type = res.headers.get('content-type') ?? '';
        const problem = (kind: string, detail: string) => {
          const key = `${sentRequest.method} ${path} ${kind}`;
          if (!findings.has(key)) findings.set(key, { ...sentRequest, status, detail: detail.slice(0, 400) });
        };
        const declared = op.responses[String(status)];
        if (status >= 500) problem(`answers ${status}`, text);
        else if (!declared) problem(`answers undeclared ${status}`, text);
        if (status >= 400 && status < 500 && !PROBLEM.test(type)) problem(`${status} not problem+json`, type);
        if (sentRequest.mutation === 'only the required inputs' && (status === 400 || status === 422)) {
          const wanted = optionalInputsWanted(op, sentRequest, text).filter(
            (field) => !CONDITIONALLY_REQUIRED[`${sentRequest.method} ${path}`]?.includes(field),
          );
          if (wanted.length) problem(`refuses only its required inputs, wanting optional ${wanted.join(', ')}`, text);
        }
        if (status >= 200 && status < 300 && declared) {
          if (!declared.content) {
            if (text.length) problem(`${status} has a body the document does not declare`, text);
          } else if (type.startsWith('application/json')) {
            const schema = declared.content['application/json']?.schema;
            if (!schema) problem(`${status} JSON not declared`, type);
            else {
              const validate = validatorOf(schema);
              if (!validate(JSON.parse(text)))
                problem(`${status} body off its schema (${sentRequest.role})`, ajv.errorsText(validate.errors));
            }
          } else if (!Object.keys(declared.content).some((t) => type.startsWith(t))) {
            problem(`${status} content type ${type} not declared`, type);
          }
        }
      };

      for (const { path, method, op } of operations) {
        for (const role of roles) {
          rng = new Rng(seedOf(`${SEED} ${method} ${path} ${role.name}`));
          maker = new ValueMaker(DOCUMENT.components.schemas, rng);
          const cases = Date.now() - started < BUDGET_MS ? CASES : Math.min(CASES, 1);
          if (cases < CASES) shortened++;
          const modes: Mode[] = ['valid', ...Array<Mode>(cases).fill('mutated'), 'required'];
          for (const mode of modes) {
            const next = build(path, method, op, role, mode);
            if (next.headers['If-Match'] === CURRENT_REVISION)
              next.headers['If-Match'] = await revisionOf(path, next.url);
            await check(next, op, path);
          }
        }
      }

      // Still up and serving after all of it.
      const live = await fetch(`${base}/health/ready`);
      const list = await fetch(`${base}/vehicles/all?limit=1`);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `fuzz: ${sent} requests, ${operations.length} operations, ${roles.length} roles, ${seconds} s\n`,
      );
      if (shortened)
        process.stdout.write(`fuzz: time budget reached: ${shortened} operation-role pairs got 1 mutated request\n`);
      const neverSucceeded = operations
        .map((o) => `${o.method.toUpperCase()} ${o.path}`)
        .filter((o) => !succeeded.has(o));
      process.stdout.write(
        `fuzz: operations no request got a 2xx from (their 2xx bodies unchecked): ${neverSucceeded.join(', ')}\n`,
      );
      const report = [...findings.entries()].map(
        ([key, s]) =>
          `${key}\n    as ${s.role} (${s.mutation}): ${s.method} ${s.url.slice(0, 200)}\n    -> ${s.status} ${s.detail}`,
      );
      expect({ seed: SEED, findings: report }).toEqual({ seed: SEED, findings: [] });
      expect(crashes).toEqual([]);
      expect([live.status, list.status]).toEqual([200, 200]);
      // The budget bounds the full cases; past it every remaining operation and role still gets its one request, which
      // on a loaded machine can take minutes more: Jest's default 60 s would fail a run that found nothing.
    },
    BUDGET_MS + 300_000,
  );

  /** The stored revision (`__v`) of the record a URL names, as a client that just read it would send it. */
  async function revisionOf(path: string, url: string): Promise<string> {
    const id = /\/([0-9a-f]{24})(\/|$)/.exec(url)?.[1] ?? '';
    const { prisma } = running.database;
    const where = { where: { id }, select: { version: true } } as const;
    const row = path.startsWith('/vehicles/owner/')
      ? await prisma.vehicleOwner.findUnique(where)
      : path.startsWith('/vehicles/')
        ? await prisma.vehicle.findUnique(where)
        : path.startsWith('/drivers/')
          ? await prisma.driver.findUnique(where)
          : path.startsWith('/trips/')
            ? await prisma.trip.findUnique(where)
            : null;
    return String(row?.version ?? 0);
  }

  /**
   * A value a well-meaning caller would send for a parameter: fixture records where the operation names them (the
   * second record, where the fixture has two that answer differently, when `second`).
   */
  function validParameter(p: Parameter, maker: ValueMaker, second = false): unknown {
    const seconds: Record<string, string> = { reference: 'REF-PENDING' };
    if (second && seconds[p.name] !== undefined) return seconds[p.name];
    const known: Record<string, string> = {
      reference: 'REF-PAID',
      query: 'kofi',
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      'If-Match': CURRENT_REVISION,
      entity: 'vehicle',
      id: f.ids.linkedVehicle,
      after: `65a${'0'.repeat(21)}`,
      ownerID: f.ids.owners[0],
      driver: f.ids.workingDriver,
      from: '2026-01-01',
      to: '2027-01-01',
    };
    if (known[p.name] !== undefined) return known[p.name];
    return p.schema ? maker.make(p.schema, p.name) : 'x';
  }

  /** Body fields that name other records point at the fixture's, and unique fields are new each time. */
  function fixBody(body: Record<string, unknown>, rng: Rng, depth = 0): Record<string, unknown> {
    if (!body || typeof body !== 'object' || depth > 3) return body;
    const n = rng.int(1e6);
    const refs: Record<string, unknown> = {
      ownerID: f.ids.owners[0],
      owner: f.ids.owners[0],
      assembly: f.ids.assembly,
      region: regionId,
      driver: f.ids.workingDriver,
      vehicle: f.ids.linkedVehicle,
      user: f.ids.assemblyUser,
      principal: f.ids.merchantA,
      station: f.ids.station,
      transportUnion: f.ids.union,
      transportUnions: [f.ids.union],
      zones: [],
      coordinates: [-0.2166, 5.556],
      registrationNumber: `GR ${1000 + (n % 9000)}-25`,
      email: `fuzz${n}@example.com`,
      phone: `024${String(n).padStart(7, '0')}`,
    };
    for (const [key, value] of Object.entries(body)) {
      if (refs[key] !== undefined) body[key] = refs[key];
      else if (value && typeof value === 'object' && !Array.isArray(value))
        fixBody(value as Record<string, unknown>, rng, depth + 1);
    }
    return body;
  }

  /** The fixture's records an operation's path names (`/vehicles/{id}/renew`: the vehicles). */
  function recordsAt(path: string): string[] | undefined {
    const template = Object.keys(idsByPath).find((k) => path === k || path.startsWith(`${k}/`));
    return template ? idsByPath[template] : undefined;
  }
});

/** Sends a request as given (node:http: a GET may carry a body, and no content type is added). */
function send(base: string, sent: Sent): Promise<{ status: number; headers: Map<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
    const req = httpRequest(
      `${base}${sent.url}`,
      {
        method: sent.method,
        headers: { ...sent.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: new Map(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A 32-bit seed from a string (FNV-1a). */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Percent-encoded, but raw percent sequences (bad encodings) and lone surrogates (not UTF-8) reach the service as such. */
function urlEncoded(value: string): string {
  if (value.startsWith('%')) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

/** Headers cannot carry every character: keep what fetch can send, so the mutation reaches the service. */
function headerSafe(value: string): string {
  return value.replace(/[^\t\x20-\x7e]/g, '?').slice(0, 2000);
}

/**
 * The document's `#/components/...` references, read from the schema registered as openapi.json; and OpenAPI 3.0's
 * `nullable` read as the specification says (3.0.3, "Clarify nullable"): it adds null to the `type` of the schema it
 * stands in, and to nothing else. A schema with no `type` is unchanged, and a null must still pass every `allOf`,
 * `anyOf`, `oneOf` and `enum` beside it: `{ nullable: true, allOf: [{ $ref: Station }] }` does not take null (Station
 * is an object). A client that reads the document strictly refuses a null the document does not declare so.
 */
function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === 'object') {
    const { nullable, ...rest } = schema as Record<string, unknown>;
    const rewritten = Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k, k === '$ref' ? `openapi.json${v as string}` : rewriteRefs(v)]),
    );
    if (nullable === true && typeof rewritten.type === 'string') rewritten.type = [rewritten.type, 'null'];
    return rewritten;
  }
  return schema;
}

/**
 * The optional inputs (body fields, parameters) a 400 or 422 to a request with only the required ones names as what
 * it wants: a field the document calls optional that the service requires. A field the request did send (refused for
 * its value) or one the operation does not declare (a rule about the record) is not one.
 */
/**
 * Inputs the document declares optional because they are required only in a case its description names: refused
 * when that case comes without them, which is not the fault this check looks for (an input required always).
 */
const CONDITIONALLY_REQUIRED: Record<string, string[]> = {
  // `item` names the checklist item of a photo whose kind is item (a plate or VIN photo has none).
  'POST /vehicles/{id}/inspection-photos': ['item'],
  // The national admin names the assembly whose catalogue it is; assembly staff work on their own.
  'GET /enforcement/catalogue': ['assembly'],
  'POST /enforcement/catalogue': ['assembly'],
};

function optionalInputsWanted(op: Operation, sent: Sent, text: string): string[] {
  let named: string[];
  try {
    named = ((JSON.parse(text) as { errors?: Array<{ field?: unknown }> }).errors ?? []).map((e) => String(e.field));
  } catch {
    return [];
  }
  const body = sent.body ? (JSON.parse(sent.body) as Record<string, unknown>) : {};
  const query = new URLSearchParams(sent.url.split('?')[1] ?? '');
  const headers = new Set(Object.keys(sent.headers).map((h) => h.toLowerCase()));
  const bodySchema = resolveSchema(op.requestBody?.content['application/json']?.schema);
  const optional = new Set([
    ...Object.keys(bodySchema?.properties ?? {}).filter((key) => !bodySchema?.required?.includes(key)),
    ...(op.parameters ?? [])
      .map((p) => (p.$ref ? DOCUMENT.components.parameters[p.$ref.split('/').pop()!] : p))
      .filter((p) => !p.required && p.in !== 'path')
      .map((p) => p.name),
  ]);
  return named.filter((field) => {
    const top = field.split(/[.[]/)[0];
    const wasSent = top in body || query.has(top) || headers.has(top.toLowerCase());
    return !wasSent && optional.has(top);
  });
}

/** A schema with its `$ref` (and a lone `allOf`) followed, for reading its properties. */
function resolveSchema(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  while (s?.$ref) s = DOCUMENT.components.schemas[s.$ref.split('/').pop()!];
  if (s?.allOf?.length === 1) return { ...resolveSchema(s.allOf[0]), ...s, allOf: undefined };
  return s;
}

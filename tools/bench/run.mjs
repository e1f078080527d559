// `npm run bench`: the read endpoints of the API against a raw `node:http` + `pg` server running the same queries on
// the same data, measured alternately in one run on this machine, and the write paths' rates for reference.
//
//   npm run bench                                  # scales 0.1 and 1.0, 32 connections, pools of 20, 10 s each
//   npm run bench -- --scales 1 --seconds 20 --rounds 3 --connections 32 --pool 20 --out tmp/bench/result.json
//   npm run bench -- --scales 1 --timeout 60     (a request may take 60 s before it counts as an error; default 10)
//   npm run bench -- --scales 1 --export 183     (a CSV export of about a million trips, and the API's memory meanwhile)
//   npm run bench -- --import 1000000            (the importer on a mongoexport with a million trips, and its memory)
//   npm run bench -- --floor                     (the API's own per-request floor: a route with no database work)
//   npm run bench -- --scales 1 --ceiling        (also the baseline's handlers inside the API's HTTP pipeline)
//   npm run bench -- --scales 0.1 --ussd         (p50/p99 of each step of a USSD session, POST /ussd/hubtel)
//   npm run bench -- --scales 0.1 --flood        (only the flood: the vehicle list's p50 under a flood of anonymous
//                                                 registrations over its p50 alone; every full run prints it too)
//
// Each scale gets its own database (transport_bench_<scale>), generated once and reused while the migrations and the
// generator are unchanged. Before measuring, each endpoint's answer from the API and from the baseline are compared
// byte for byte: a baseline that answers something else would measure nothing.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { callbackToken, generationSql, KEYS } from './generate.mjs';
import { registrations } from './registrations.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((pair) => pair.trim().split(/\s+/))
    .map(([k, v]) => [k, v ?? 'true']),
);
const SCALES = (args.scales ?? '0.1,1').split(',').map(Number);
const SECONDS = Number(args.seconds ?? 10);
const ROUNDS = Number(args.rounds ?? 3);
const CONNECTIONS = Number(args.connections ?? 32);
// Seconds a request may take before it counts as an error (autocannon's default, 10; more on a machine shared with
// other work, where a request can wait that long for a core).
const TIMEOUT = Number(args.timeout ?? 10);
const OUT = resolve(root, args.out ?? 'tmp/bench/result.json');
const FLOOD_CONNECTIONS = Number(args['flood-connections'] ?? 16);
// Both servers get the same number of database connections.
const POOL = Number(args.pool ?? 20);
const SERVER = args.postgres ?? process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
// --api-port moves the API under test (another bench may hold the default on a shared machine).
const API_PORT = Number(args['api-port'] ?? 3410);
// The baseline and the ceiling take the next two ports, so that --api-port moves the three.
const RAW_PORT = API_PORT + 1;
const CEILING_PORT = API_PORT + 2;
// --database names the generated databases (<name>_<scale>): another bench on the same server keeps its own.
const DATABASE = args.database ?? 'transport_bench';

const dbUrl = (name) => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};

/** What the generated data depends on: the migrations and the generator. A change regenerates. */
function fingerprint(scale) {
  const hash = createHash('sha256')
    .update(String(scale))
    .update(readFileSync(join(root, 'tools/bench/generate.mjs')));
  const migrations = join(root, 'prisma', 'migrations');
  for (const name of readdirSync(migrations).sort()) hash.update(name);
  return hash.digest('hex').slice(0, 16);
}

/** Applies the committed migrations to the database at `url` (the Prisma CLI, as operators run it). */
function migrate(url) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/prisma/build/index.js'), 'migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`migrations failed:\n${result.stdout}${result.stderr}`);
}

async function prepare(scale) {
  const name = `${DATABASE}_${String(scale).replace('.', '_')}`;
  const mark = `bench:${fingerprint(scale)}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'SELECT shobj_description(oid, $2) AS mark FROM pg_database WHERE datname = $1',
      [name, 'pg_database'],
    );
    if (rows[0]?.mark === mark) {
      console.log(`[bench] ${name}: generated data reused`);
      return dbUrl(name);
    }
    if (rows[0]) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = dbUrl(name);
  migrate(url);
  const started = Date.now();
  console.log(`[bench] ${name}: generating scale ${scale} ...`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(generationSql(scale));
    await client.query(`COMMENT ON DATABASE ${name} IS '${mark}'`);
  } finally {
    await client.end();
  }
  console.log(`[bench] ${name}: generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return url;
}

/**
 * Starts a server. Its output goes to a file (tmp/bench/<label>.log), as a log collector would take it: the API writes
 * its access log, one line per request, and the runner, which is also the load generator, does not read it.
 */
function start(label, command, argv, env) {
  mkdirSync(join(root, 'tmp', 'bench'), { recursive: true });
  const file = join(root, 'tmp', 'bench', `${label}.log`);
  const out = openSync(file, 'w');
  const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  closeSync(out);
  child.output = () => readFileSync(file, 'utf8');
  child.label = label;
  return child;
}

async function ready(port, child, path = '/health') {
  const deadline = Date.now() + 60_000;
  const began = Date.now();
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.label} exited:\n${child.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      if (res.status === 200) return Date.now() - began;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  throw new Error(`${child.label} did not answer on ${port}:\n${child.output()}`);
}

const stop = (child) =>
  new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', done);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });

/** Resident memory of a process, in MB, from /proc (Linux). */
function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line.replace(/\D+/g, '')) / 1024;
  } catch {
    return 0;
  }
}

/**
 * CPU time a process has used (user and system, all its threads), in µs, from /proc (Linux; 0 elsewhere). Per answer,
 * it says what a request costs the server whatever else the machine runs: a rate halves when other work takes half
 * the cores, the CPU an answer takes moves far less.
 */
function cpuUs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

function measure(url, headers, pid) {
  return new Promise((done, fail) => {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
    const cpuBefore = cpuUs(pid);
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, timeout: TIMEOUT, headers }, (error, result) => {
      clearInterval(sampler);
      if (error) return fail(error);
      if (result.non2xx > 0 || result.errors > 0)
        return fail(new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      const cpu = (cpuUs(pid) - cpuBefore) / Math.max(result['2xx'], 1);
      done({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, rss: peak, cpu });
    });
  });
}

/** A second of load on a route (at most SECONDS), not measured. */
const warmUp = (url, headers) =>
  new Promise((done, fail) =>
    autocannon({ url, connections: CONNECTIONS, duration: Math.min(SECONDS, 1), timeout: TIMEOUT, headers }, (error) =>
      error ? fail(error) : done(),
    ),
  );

/** The median of a list of numbers. */
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
};
/** Per round, a side's figure over another's (measured back to back in that round): the median and the range. */
const roundRatios = (mine, theirs, key) => {
  const ratios = mine.map((m, i) => m[key] / theirs[i][key]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
};

function endpoints() {
  return [
    { name: 'GET /vehicles/all?limit=50', path: '/vehicles/all?limit=50', headers: {} },
    { name: 'GET /drivers/all (anonymous)', path: '/drivers/all', headers: {} },
    {
      name: 'GET /vehicles/owner/search?query=yir',
      path: '/vehicles/owner/search?query=yir',
      headers: { authorization: KEYS.admin },
    },
    {
      name: 'GET /trips/intracity/date (one day)',
      path: `/trips/intracity/date?startDate=${day(-3)}&endDate=${day(-3)}`,
      headers: { authorization: KEYS.admin },
    },
    {
      name: 'GET /payment/check_transaction',
      path: '/payment/check_transaction?reference=REF-4242',
      headers: { authorization: KEYS.merchant },
    },
  ];
}
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The same bytes from a server (at `base`) and the baseline, or the run stops here. */
async function sameAnswers(list, base, who) {
  for (const e of list) {
    const [api, raw] = await Promise.all(
      [base, `http://127.0.0.1:${RAW_PORT}`].map((at) => fetch(`${at}${e.path}`, { headers: e.headers })),
    );
    const [a, r] = await Promise.all([api.text(), raw.text()]);
    if (api.status !== 200 || a !== r || api.headers.get('link') !== raw.headers.get('link')) {
      let at = 0;
      while (at < a.length && a[at] === r[at]) at++;
      throw new Error(
        `${e.name}: ${who} and the baseline answer differently (${who} ${api.status}, baseline ${raw.status}; link ` +
          `${api.headers.get('link')} vs ${raw.headers.get('link')}); first difference at ${at}:\n` +
          `${who}: ${a.slice(Math.max(0, at - 80), at + 120)}\nbaseline: ${r.slice(Math.max(0, at - 80), at + 120)}`,
      );
    }
  }
}

/** One POST load at the API: its rate, latency, refusals and the API's memory at the end. */
function postRate(path, pid, extra) {
  return new Promise((done, fail) =>
    autocannon(
      {
        url: `http://127.0.0.1:${API_PORT}${path}`,
        method: 'POST',
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { 'content-type': 'application/json' },
        ...extra,
      },
      (error, r) =>
        error
          ? fail(error)
          : done({
              rps: r.requests.average,
              // Answered 2xx per second: with the registration bulkhead, the rest of a flood is 429s.
              acceptedPerSecond: r['2xx'] / r.duration,
              p50: r.latency.p50,
              p99: r.latency.p99,
              non2xx: r.non2xx,
              rss: rssMb(pid),
            }),
    ),
  );
}

/** Rates of the two write paths people ask about (no baseline: these are for trend, not target). */
async function writeRates(pid) {
  const out = {};
  out['POST /payment/callback/:token (acknowledgements)'] = await postRate(
    `/payment/callback/${callbackToken(4)}`,
    pid,
    {
      body: JSON.stringify({ ResponseCode: '0000', Message: 'success', Data: { ClientReference: 'x' } }),
    },
  );
  out['POST /drivers/add'] = await postRate('/drivers/add', pid, registrations());
  return out;
}

/** The p50 and p99 (ms) of a GET with `connections` clients for SECONDS. */
function latencyOf(path, connections) {
  return new Promise((done, fail) =>
    autocannon({ url: `http://127.0.0.1:${API_PORT}${path}`, connections, duration: SECONDS }, (error, r) =>
      error
        ? fail(error)
        : r.non2xx > 0 || r.errors > 0
          ? fail(new Error(`${path}: ${r.non2xx} non-2xx answers, ${r.errors} errors`))
          : done({ p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average }),
    ),
  );
}

/** The flood, from its own process (flood-client.mjs): what it sent, what was registered, what was refused. */
function floodFromElsewhere(connections) {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(root, 'tools/bench/flood-client.mjs'), `http://127.0.0.1:${API_PORT}/drivers/add`, connections, SECONDS],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`flood client exited ${code}`))));
  });
}

/**
 * One address floods anonymous registrations (16 connections, or --flood-connections) while passengers read the public vehicle list: the
 * list's p50 under the flood over its p50 with the same readers alone (must stay under 2). The registration limits are
 * lifted for the bench, so every request of the flood does a whole registration, the work an attacker with many
 * addresses gets done.
 */
async function floodRun() {
  const path = '/vehicles/all?limit=50';
  const readers = 4;
  const idle = await latencyOf(path, readers);
  const [underFlood, flood] = await Promise.all([latencyOf(path, readers), floodFromElsewhere(FLOOD_CONNECTIONS)]);
  const result = {
    readers,
    floodConnections: FLOOD_CONNECTIONS,
    idleP50: idle.p50,
    floodP50: underFlood.p50,
    ratio: underFlood.p50 / Math.max(idle.p50, 1),
    registrationsPerSecond: flood.acceptedPerSecond,
    requestsPerSecond: flood.rps,
    refused: flood.non2xx,
  };
  console.log(
    `[bench] flood: ${path} p50 ${idle.p50} ms alone, ${underFlood.p50} ms under ${flood.rps.toFixed(0)} anonymous registration requests/s from ${FLOOD_CONNECTIONS} connections (${flood.acceptedPerSecond.toFixed(0)}/s registered, ${flood.non2xx} refused with 429) (ratio ${result.ratio.toFixed(2)}, must stay under 2)`,
  );
  return result;
}

function startApi(url, { label = 'API', tree = root, port = API_PORT, env = {} } = {}) {
  // With the service's own V8 flags (apps/api/node-flags.json): the API measured is the API as it ships.
  const flags = JSON.parse(readFileSync(join(root, 'apps/api/node-flags.json'), 'utf8'));
  return start(label, process.execPath, [...flags, join(tree, 'dist/apps/api/main.js')], {
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: String(POOL),
    PORT: String(port),
    SEED_DEMO: 'false',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    METRICS_PORT: '0',
    // One client at 32 connections would be held back by the default limits; the limits stay on (each request still
    // pays for its shared counter) but high enough never to refuse.
    RATE_LIMIT_PER_KEY_PER_MINUTE: '10000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '10000000',
    REGISTRATION_LIMIT_PER_ADDRESS: '100000',
    REGISTRATION_LIMIT_PER_PHONE: '1000',
    ACTIVATION_KEY_SECRETS: 'bench-activation-key-secret-0123456789abcdef',
    // No job workers: the generated data holds a quarter of its payments pending (12,500 at scale 0.1, 125,000 at 1.0),
    // and the status checks the workers would run on them (Prisma, pg-boss, about a tenth of a core with no request at
    // all: 2,080 ms of CPU in 20 s idle, 310 ms without) would be measured as the reads' cost. Jobs are still queued.
    JOB_WORKERS: 'false',
    ...env,
  });
}

/**
 * `--export <days>`: the trips of the last <days> days (about 5,500 a day at scale 1.0, so 183 days is about a
 * million) downloaded as CSV (Accept: text/csv), read to the end while the API's resident memory is sampled.
 */
async function exportScale(scale, days) {
  const url = await prepare(scale);
  const api = startApi(url);
  try {
    await ready(API_PORT, api);
    const before = rssMb(api.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.pid))), 250);
    const began = Date.now();
    const res = await fetch(
      `http://127.0.0.1:${API_PORT}/trips/intracity/date?startDate=${day(-days)}&endDate=${day(-1)}`,
      {
        headers: { authorization: KEYS.admin, accept: 'text/csv' },
      },
    );
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    clearInterval(sampler);
    const seconds = (Date.now() - began) / 1000;
    const rows = lines - 1; // the header row
    const out = {
      scale,
      days,
      rows,
      seconds,
      rowsPerSecond: Math.round(rows / seconds),
      mb: Math.round(bytes / 2 ** 20),
      rssBeforeMb: before,
      rssPeakMb: peak,
    };
    console.log(
      `[bench] export scale ${scale}, ${days} days: ${rows} trips as CSV (${out.mb} MB) in ${seconds.toFixed(1)} s ` +
        `(${out.rowsPerSecond} rows/s); API RSS ${before} MB before, ${peak} MB at most`,
    );
    return out;
  } finally {
    await stop(api);
  }
}

/**
 * `--import <trips>`: the importer (tools/import) on a sample export of the original service with that many trips
 * (the other collections at 1% of the 100,000-record sample), into a fresh database, its resident memory sampled;
 * then the same export with the trips as one JSON array, on one line, as `mongoexport --jsonArray` writes it, and
 * the ratio of the two times (the array must read as fast as lines).
 */
async function importRun(trips) {
  const built = spawnSync(process.execPath, [join(root, 'tools', 'import', 'build.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`import build failed:\n${built.stdout}${built.stderr}`);
  const cli = join(root, 'dist', 'tools', 'import', 'main.js');
  const folder = join(root, 'tmp', 'bench', `import-export-${trips}`);
  if (!existsSync(join(folder, 'transactions.json'))) {
    const sample = spawnSync(process.execPath, [cli, 'sample', folder, '--scale', '0.01', '--trips', String(trips)], {
      encoding: 'utf8',
    });
    if (sample.status !== 0) throw new Error(`sample failed:\n${sample.stdout}${sample.stderr}`);
  }
  const arrayFolder = `${folder}-array`;
  if (!existsSync(join(arrayFolder, 'trips.json'))) {
    mkdirSync(arrayFolder, { recursive: true });
    for (const file of readdirSync(folder))
      if (file !== 'trips.json') writeFileSync(join(arrayFolder, file), readFileSync(join(folder, file)));
    await jsonArrayOf(join(folder, 'trips.json'), join(arrayFolder, 'trips.json'));
  }
  const lines = await importOnce(cli, folder, trips, 'JSON lines');
  const array = await importOnce(cli, arrayFolder, trips, 'one JSON array (--jsonArray)');
  const ratio = array.seconds / lines.seconds;
  console.log(
    `[bench] the trips as one JSON array took ${ratio.toFixed(2)}x the time of JSON lines ` +
      `(${array.seconds.toFixed(1)} s / ${lines.seconds.toFixed(1)} s, same records, same run)`,
  );
  return { ...lines, jsonArray: array, arrayToLinesTime: Number(ratio.toFixed(3)) };
}

/** The JSON lines of `from` as one JSON array on one line in `to`, streamed. */
async function jsonArrayOf(from, to) {
  const { createReadStream, createWriteStream } = await import('node:fs');
  const { createInterface } = await import('node:readline');
  const { once } = await import('node:events');
  const out = createWriteStream(to);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('[');
  let first = true;
  for await (const line of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    await write(first ? line : `,${line}`);
    first = false;
  }
  await write(']');
  out.end();
  await once(out, 'finish');
}

/** One import of a folder into a fresh database, its time, records and resident memory (sampled). */
async function importOnce(cli, folder, trips, form) {
  const megabytes = Math.round(
    readdirSync(folder).reduce((sum, f) => sum + statSync(join(folder, f)).size, 0) / 2 ** 20,
  );
  const name = 'transport_bench_import';
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = dbUrl(name);
  migrate(url);
  const merchant = 'f'.repeat(24);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ($1, 'M', 's', now())`, [
    merchant,
  ]);
  await client.end();
  const report = join(root, 'tmp', 'bench', 'import-report.jsonl');
  // With the memory flags `npm run import` uses (apps/api/node-flags.json).
  const flags = JSON.parse(readFileSync(join(root, 'apps/api/node-flags.json'), 'utf8'));
  const importer = start(
    'importer',
    process.execPath,
    [...flags, cli, '--report', report, '--merchant', `5a0000000000000000000001=${merchant}`, folder],
    {
      DATABASE_URL: url,
    },
  );
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(importer.pid))), 250);
  const began = Date.now();
  const code = await new Promise((done) => importer.on('exit', done));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`import failed:\n${importer.output()}`);
  const seconds = (Date.now() - began) / 1000;
  const lines = readFileSync(report, 'utf8').trim().split('\n');
  const summary = JSON.parse(lines.at(-1)).summary;
  const imported = Object.values(summary.collections).reduce((n, c) => n + c.imported, 0);
  const out = {
    trips,
    form,
    exportMb: megabytes,
    imported,
    seconds,
    recordsPerSecond: Math.round(imported / seconds),
    rssPeakMb: Math.round(peak),
  };
  console.log(
    `[bench] import of a ${megabytes} MB export (${trips} trips, ${form}): ${imported} records in ` +
      `${seconds.toFixed(1)} s (${out.recordsPerSecond} records/s); importer RSS at most ${out.rssPeakMb} MB`,
  );
  return out;
}

/** One scale: API and baseline (and, with `ceilingTree`, the ceiling's build) measured alternately. */
async function benchScale(scale, ceilingTree) {
  const url = await prepare(scale);
  const api = startApi(url);
  const raw = start('baseline', process.execPath, [join(root, 'tools/bench/raw-server.mjs')], {
    DATABASE_URL: url,
    POOL_SIZE: String(POOL),
    PORT: String(RAW_PORT),
  });
  // Each side: where it answers and which process to watch. The ceiling's routes sit under /ceiling.
  const sides = {
    api: { base: `http://127.0.0.1:${API_PORT}`, child: api },
    raw: { base: `http://127.0.0.1:${RAW_PORT}`, child: raw },
  };
  let ceiling;
  try {
    const startMs = await ready(API_PORT, api);
    await ready(RAW_PORT, raw);
    // Started once the API answers, so the API's start is timed on a machine not busy starting another.
    if (ceilingTree) {
      ceiling = startApi(url, { label: 'ceiling', tree: ceilingTree, port: CEILING_PORT });
      await ready(CEILING_PORT, ceiling);
      sides.ceiling = { base: `http://127.0.0.1:${CEILING_PORT}/ceiling`, child: ceiling };
    }
    const list = endpoints();
    await sameAnswers(list, sides.api.base, 'the API');
    if (ceiling) await sameAnswers(list, sides.ceiling.base, 'the ceiling');
    const rows = [];
    const order = Object.keys(sides);
    for (const e of list) {
      const samples = Object.fromEntries(order.map((side) => [side, []]));
      // Not counted: a warm-up of each side on this endpoint (its code compiled and optimised, its pool's
      // connections open), so the first round does not carry what a server does once.
      for (const side of order) await warmUp(`${sides[side].base}${e.path}`, e.headers);
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 === 0 ? order : [...order].reverse()) {
          samples[side].push(await measure(`${sides[side].base}${e.path}`, e.headers, sides[side].child.pid));
        }
      }
      // Each side's median over the rounds; the ratios are the medians of each round's ratio (the two sides measured
      // back to back), so a round in which other work took the machine moves a ratio less than a mean would.
      const figures = (side) => ({
        rps: median(samples[side].map((x) => x.rps)),
        p50: median(samples[side].map((x) => x.p50)),
        p99: median(samples[side].map((x) => x.p99)),
        cpuUs: median(samples[side].map((x) => x.cpu)),
        rounds: samples[side],
      });
      const row = {
        endpoint: e.name,
        api: figures('api'),
        raw: figures('raw'),
        ...(ceiling && { ceiling: figures('ceiling') }),
        apiRssMb: Math.max(...samples.api.map((s) => s.rss)),
      };
      row.ratios = roundRatios(samples.api, samples.raw, 'rps');
      row.ratio = row.ratios.median;
      row.p99Ratio = roundRatios(samples.api, samples.raw, 'p99').median;
      // What the rate ratio would be if each server had the CPU to itself: the baseline's CPU per answer over the API's.
      row.cpuRatio = roundRatios(samples.raw, samples.api, 'cpu').median;
      if (ceiling) {
        row.ceilingRatio = roundRatios(samples.ceiling, samples.raw, 'rps').median;
        row.apiToCeiling = roundRatios(samples.api, samples.ceiling, 'rps').median;
        row.apiToCeilingCpu = roundRatios(samples.ceiling, samples.api, 'cpu').median;
      }
      rows.push(row);
      console.log(
        `[bench] scale ${scale} ${e.name}: API ${row.api.rps.toFixed(0)} req/s, baseline ${row.raw.rps.toFixed(0)} (ratio ${row.ratio.toFixed(2)}, ` +
          `${row.ratios.min.toFixed(2)}-${row.ratios.max.toFixed(2)} over ${ROUNDS} rounds); CPU per answer ${row.api.cpuUs.toFixed(0)} µs against ${row.raw.cpuUs.toFixed(0)} (${row.cpuRatio.toFixed(2)})` +
          (row.ceiling
            ? `; ceiling ${row.ceiling.rps.toFixed(0)} req/s (${row.ceilingRatio.toFixed(2)} of the baseline), ${row.ceiling.cpuUs.toFixed(0)} µs CPU per answer`
            : ''),
      );
    }
    const writes = await writeRates(api.pid);
    const flood = await floodRun();
    return { scale, startToFirstAnswerMs: startMs, rows, writes, flood };
  } finally {
    await Promise.all([stop(api), stop(raw), ...(ceiling ? [stop(ceiling)] : [])]);
  }
}

function table(result) {
  const f = (n, d = 0) => n.toFixed(d);
  const lines = [];
  for (const s of result.scales) {
    lines.push(
      `\nScale ${s.scale} (start to first answer: ${s.startToFirstAnswerMs} ms; migrations already applied)\n`,
    );
    lines.push(
      '| Endpoint | API req/s | raw req/s | ratio (range) | CPU µs per answer, API / raw | CPU ratio | API p50 / p99 ms | raw p50 / p99 ms | p99 ratio | API RSS MB |',
    );
    lines.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of s.rows)
      lines.push(
        `| ${r.endpoint} | ${f(r.api.rps)} | ${f(r.raw.rps)} | ${f(r.ratio, 2)} (${f(r.ratios.min, 2)}-${f(r.ratios.max, 2)}) | ${f(r.api.cpuUs)} / ${f(r.raw.cpuUs)} | ${f(r.cpuRatio, 2)} | ${f(r.api.p50)} / ${f(r.api.p99)} | ${f(r.raw.p50)} / ${f(r.raw.p99)} | ${f(r.p99Ratio, 2)} | ${f(r.apiRssMb)} |`,
      );
    for (const [name, w] of Object.entries(s.writes))
      lines.push(`| ${name} | ${f(w.rps)} | | | | | ${f(w.p50)} / ${f(w.p99)} | | | ${f(w.rss)} |`);
    if (s.flood)
      lines.push(
        `\nFlood at scale ${s.scale}: GET /vehicles/all?limit=50 (${s.flood.readers} readers) p50 ${s.flood.idleP50} ms alone, ${s.flood.floodP50} ms under ${f(s.flood.registrationsPerSecond)} anonymous registrations/s from ${s.flood.floodConnections} connections: ratio ${f(s.flood.ratio, 2)} (target: under 2)`,
      );
  }
  for (const s of result.scales.filter((x) => x.rows.some((r) => r.ceiling))) {
    lines.push(
      `\nScale ${s.scale}: the baseline's handlers inside the API's HTTP pipeline (--ceiling), the most any endpoint can reach behind it\n`,
    );
    lines.push(
      '| Endpoint | ceiling req/s | ceiling / raw | API / ceiling | ceiling CPU µs per answer | API / ceiling by CPU | ceiling p50 / p99 ms |',
    );
    lines.push('|---|---|---|---|---|---|---|');
    for (const r of s.rows)
      lines.push(
        `| ${r.endpoint} | ${f(r.ceiling.rps)} | ${f(r.ceilingRatio, 2)} | ${f(r.apiToCeiling, 2)} | ${f(r.ceiling.cpuUs)} | ${f(r.apiToCeilingCpu, 2)} | ${f(r.ceiling.p50)} / ${f(r.ceiling.p99)} |`,
      );
  }
  if (result.scales.length > 1) {
    const [small, big] = [result.scales[0], result.scales[result.scales.length - 1]];
    lines.push(`\nLatency (API p50) at scale ${big.scale} over scale ${small.scale}:`);
    for (const r of big.rows) {
      const other = small.rows.find((x) => x.endpoint === r.endpoint);
      lines.push(`- ${r.endpoint}: ${(r.api.p50 / other.api.p50).toFixed(2)}x`);
    }
  }
  return lines.join('\n');
}

/**
 * `--floor`: what the API's HTTP stack costs per request with no database work at all, against a bare `node:http`
 * server (its own process) answering the same bytes: GET /health/live goes through Express, helmet, the metrics
 * middleware, Nest's router, guard and interceptors and Terminus, and writes no log line. Its rate is the most any
 * endpoint of the API can reach on this machine, whatever its queries cost.
 */
/**
 * `--ussd`: each step of a USSD session (POST /ussd/hubtel, the demo's loopback access) under CONNECTIONS at once:
 * the menu, a choice, a vehicle's verdict by plate, a driver's by licence. Hubtel waits a few seconds for an answer;
 * the goal is a p99 under 300 ms at the service. Every step comes from one calling number, whose limit is raised.
 */
async function ussdRun() {
  const url = await prepare(SCALES[0]);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const plate = (await db.query('SELECT "registrationNumber" AS p FROM vehicles WHERE approved ORDER BY id LIMIT 1'))
    .rows[0]?.p;
  const licence = (await db.query('SELECT license AS l FROM drivers ORDER BY id LIMIT 1')).rows[0]?.l;
  await db.end();
  const api = startApi(url, { env: { USSD_STEPS_PER_PHONE_PER_HOUR: '100000' } });
  const steps = [
    ['menu (initiation)', { Type: 'initiation', Message: '*713*42#', ClientState: '' }],
    ['choice 1 (ask for a plate)', { Type: 'response', Message: '1', ClientState: 'en|menu|' }],
    ['vehicle verdict by plate', { Type: 'response', Message: plate.toLowerCase(), ClientState: 'en|vehicle|' }],
    ['driver verdict by licence', { Type: 'response', Message: licence, ClientState: 'en|driver|' }],
  ];
  try {
    await ready(API_PORT, api);
    const results = [];
    for (const [name, step] of steps) {
      const body = JSON.stringify({ ...step, SessionId: 'bench', Mobile: '233246912184', Sequence: '2' });
      const check = await fetch(`http://127.0.0.1:${API_PORT}/ussd/hubtel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (check.status !== 200) throw new Error(`${name}: ${check.status} ${await check.text()}`);
      const runs = [];
      for (let round = 0; round < ROUNDS; round++)
        runs.push(
          await new Promise((done, fail) =>
            autocannon(
              {
                url: `http://127.0.0.1:${API_PORT}/ussd/hubtel`,
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body,
                connections: CONNECTIONS,
                duration: SECONDS,
              },
              (error, r) => {
                if (error) return fail(error);
                if (r.non2xx > 0 || r.errors > 0)
                  return fail(new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`));
                done({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
              },
            ),
          ),
        );
      const worst = runs.reduce((a, b) => (b.p99 > a.p99 ? b : a));
      results.push({ step: name, ...worst });
      console.log(
        `[bench] USSD ${name}: ${Math.round(worst.rps)} req/s, p50 ${worst.p50} ms, p99 ${worst.p99} ms (worst of ${ROUNDS})`,
      );
    }
    return results;
  } finally {
    await stop(api);
  }
}

async function floorRun() {
  const url = await prepare(SCALES[0]);
  const api = startApi(url);
  let raw;
  try {
    await ready(API_PORT, api);
    const sample = await fetch(`http://127.0.0.1:${API_PORT}/health/live`);
    const body = await sample.text();
    raw = start('raw', process.execPath, ['-e', FLOOR_SERVER], {
      FLOOR_PORT: String(RAW_PORT),
      FLOOR_BODY: body,
      FLOOR_TYPE: sample.headers.get('content-type') ?? 'application/json',
    });
    await ready(RAW_PORT, raw, '/health/live');
    const runs = { api: [], raw: [] };
    const sides = [
      ['api', `http://127.0.0.1:${API_PORT}/health/live`, api.pid],
      ['raw', `http://127.0.0.1:${RAW_PORT}/health/live`, raw.pid],
    ];
    for (const [, url] of sides) await warmUp(url, {});
    // Alternated, as the reads are: API first in even rounds, the bare server first in odd ones.
    for (let round = 0; round < ROUNDS; round++)
      for (const [side, url, pid] of round % 2 === 0 ? sides : [...sides].reverse())
        runs[side].push(await measure(url, {}, pid));
    const best = (list) => list.reduce((a, b) => (b.rps > a.rps ? b : a));
    const floor = {
      path: 'GET /health/live',
      api: best(runs.api),
      raw: best(runs.raw),
      ratio: roundRatios(runs.api, runs.raw, 'rps').median,
      cpuRatio: roundRatios(runs.raw, runs.api, 'cpu').median,
      apiCpuUs: median(runs.api.map((x) => x.cpu)),
      rawCpuUs: median(runs.raw.map((x) => x.cpu)),
    };
    console.log(
      `[bench] floor, no database work: API ${Math.round(floor.api.rps)} req/s (p50 ${floor.api.p50} ms, p99 ${floor.api.p99} ms), ` +
        `bare node:http ${Math.round(floor.raw.rps)} req/s (p50 ${floor.raw.p50} ms, p99 ${floor.raw.p99} ms), best of ${ROUNDS}; ` +
        `ratio ${floor.ratio.toFixed(2)} (median of the rounds; target at least 0.5); CPU per answer ${floor.apiCpuUs.toFixed(0)} µs ` +
        `against ${floor.rawCpuUs.toFixed(0)} (${floor.cpuRatio.toFixed(2)}); so no API endpoint can pass ${Math.round(floor.api.rps)} req/s on this machine`,
    );
    return floor;
  } finally {
    await stop(api);
    if (raw) await stop(raw);
  }
}

const FLOOR_SERVER = `require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': process.env.FLOOR_TYPE });
  res.end(process.env.FLOOR_BODY);
}).listen(Number(process.env.FLOOR_PORT), '127.0.0.1');`;

/** Builds the API of the workspace at `cwd` (its dist/apps/api), or stops the run. */
function buildApi(cwd) {
  const nxPackage = JSON.parse(readFileSync(join(root, 'node_modules/nx/package.json'), 'utf8'));
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/nx', nxPackage.bin.nx), 'build', 'api', '--outputStyle=static'],
    { cwd, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** What a scratch copy of the workspace leaves out: installed, built, cached or local data. */
const NOT_COPIED = new Set(['node_modules', 'dist', 'tmp', '.nx', '.tools', '.git', 'coverage', '.data']);

/**
 * `--ceiling`: a scratch copy of this workspace (outside it, so Nx and the tests never see a second `api`) with
 * tools/bench/ceiling/ceiling.controller.ts registered in the app module, built. Returns the copy's path.
 */
function buildCeiling() {
  // One per --api-port, so that two benches on one machine do not build into the same copy.
  const tree = join(tmpdir(), `transport-bench-ceiling-${API_PORT}`);
  rmSync(tree, { recursive: true, force: true });
  cpSync(root, tree, { recursive: true, filter: (path) => !NOT_COPIED.has(basename(path)) });
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'));
  cpSync(
    join(root, 'tools/bench/ceiling/ceiling.controller.ts'),
    join(tree, 'apps/api/src/ceiling/ceiling.controller.ts'),
  );
  const modulePath = join(tree, 'apps/api/src/app.module.ts');
  const source = readFileSync(modulePath, 'utf8');
  const registered = source.replace(
    'controllers: [HealthController]',
    'controllers: [HealthController, CeilingController]',
  );
  if (registered === source)
    throw new Error('--ceiling: no `controllers: [HealthController]` in app.module.ts to extend');
  writeFileSync(modulePath, `import { CeilingController } from './ceiling/ceiling.controller';\n${registered}`);
  buildApi(tree);
  return tree;
}

async function main() {
  buildApi(root);
  const result = {
    at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    connections: CONNECTIONS,
    pool: POOL,
    seconds: SECONDS,
    rounds: ROUNDS,
    scales: [],
  };
  if (args.floor) {
    result.floor = await floorRun();
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2));
    return;
  }
  if (args.ussd) {
    result.ussd = await ussdRun();
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2));
    return;
  }
  if (args.flood) {
    // Only the flood scenario (which the full run ends each scale with), at the first scale.
    const url = await prepare(SCALES[0]);
    const api = startApi(url);
    try {
      await ready(API_PORT, api);
      result.flood = await floodRun();
    } finally {
      await stop(api);
    }
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2));
    return;
  }
  if (args.import) {
    result.import = await importRun(Number(args.import));
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2));
    return;
  }
  if (args.export) {
    result.exports = [];
    for (const scale of SCALES) result.exports.push(await exportScale(scale, Number(args.export)));
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(OUT, JSON.stringify(result, null, 2));
    return;
  }
  const ceilingTree = args.ceiling ? buildCeiling() : undefined;
  for (const scale of SCALES) result.scales.push(await benchScale(scale, ceilingTree));
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2));
  console.log(table(result));
  console.log(
    `\n[bench] ${result.machine.cpus} × ${result.machine.model}, ${result.machine.memoryGb} GB, Node ${result.machine.node}; written to ${OUT}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

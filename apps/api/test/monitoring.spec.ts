import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createApp, type RunningApp } from '../src/app';
import { Metrics } from '../src/core/observability/metrics';
import { describeWithPrograms, findProgram } from './support/local-servers';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, WORKSPACE_ROOT, type TierStore } from './support/test-app';

const MONITORING = join(WORKSPACE_ROOT, 'deploy', 'monitoring');
const RULES = readFileSync(join(MONITORING, 'alerts.yaml'), 'utf8');
const DASHBOARD = JSON.parse(readFileSync(join(MONITORING, 'grafana-dashboard.json'), 'utf8')) as {
  panels: Array<{ id: number; title: string; targets: Array<{ expr: string }> }>;
};

/** Every PromQL expression of the alert rules and of the dashboard's panels. */
function expressions(): string[] {
  const rules = (parse(RULES) as { groups: Array<{ rules: Array<{ expr: string }> }> }).groups.flatMap((g) =>
    g.rules.map((r) => r.expr),
  );
  return [...rules, ...DASHBOARD.panels.flatMap((p) => p.targets.map((t) => t.expr))];
}

/** The metric names an expression reads (the service's own families; `up` is Prometheus's). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:transport|http|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]);
}

function promtool(...args: string[]) {
  return spawnSync(findProgram('promtool') as string, args, { cwd: MONITORING, encoding: 'utf8' });
}

describeWithPrograms('the alert rules', { promtool: findProgram('promtool') }, () => {
  it('pass `promtool check rules`', () => {
    const checked = promtool('check', 'rules', 'alerts.yaml');
    expect(`${checked.stdout}${checked.stderr}`).toContain('SUCCESS');
    expect(checked.status).toBe(0);
  });

  it('pass their unit tests (`promtool test rules`): each alert fires on what should raise it, and only then', () => {
    const tested = promtool('test', 'rules', 'alerts.test.yaml');
    expect(`${tested.stdout}${tested.stderr}`).toContain('SUCCESS');
    expect(tested.status).toBe(0);
    // Every alert has a test that expects it to fire.
    const alerts = [...RULES.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    const tests = readFileSync(join(MONITORING, 'alerts.test.yaml'), 'utf8');
    for (const alert of alerts) expect(tests).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n\\s+- `));
  });
});

describe('the Grafana dashboard', () => {
  it('is one JSON document with a Prometheus datasource variable and a query in every panel', () => {
    const ids = DASHBOARD.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of DASHBOARD.panels) {
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets) expect(target.expr).toMatch(/\S/);
    }
    expect(JSON.stringify(DASHBOARD)).toContain('"uid":"${datasource}"');
  });

  it('and the alert rules count only events the service logs', () => {
    const source = readdirSync(join(WORKSPACE_ROOT, 'apps', 'api', 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
      .map((f) => readFileSync(join(WORKSPACE_ROOT, 'apps', 'api', 'src', f), 'utf8'))
      .join('\n');
    const events = new Set(expressions().flatMap((e) => [...e.matchAll(/event="([^"]+)"/g)].map((m) => m[1])));
    expect(events.size).toBeGreaterThan(5);
    for (const event of events) expect(source).toContain(`'${event}'`);
  });
});

// The names the rules and the dashboard read are the names a running instance exports (with a read replica configured,
// so its gauges are there too).
describeOnPostgres('the monitoring against a running instance', () => {
  let tier: TierStore;
  let app: RunningApp;

  beforeAll(async () => {
    tier = await openTierStore('postgresql');
    const config = tier.config();
    app = await createApp({ ...config, databaseReadUrl: config.databaseUrl, jobs: { ...config.jobs, workers: false } });
  });
  afterAll(async () => {
    await app?.close();
    await tier?.dispose();
  });

  it('reads only metrics the service exports', async () => {
    const text = await app.app.get(Metrics).registry.metrics();
    const exported = new Set<string>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) exported.add(`${name}${suffix}`);
    }
    const read = new Set(expressions().flatMap(metricNames));
    expect(read.size).toBeGreaterThan(8);
    expect([...read].filter((name) => !exported.has(name))).toEqual([]);
  });
});

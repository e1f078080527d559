import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config';
import { describeWithPrograms, findProgram } from './support/local-servers';
import { WORKSPACE_ROOT } from './support/test-app';

const KUBERNETES = join(WORKSPACE_ROOT, 'deploy', 'kubernetes');
const VALIDATE = join(KUBERNETES, 'validate.mjs');

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are read as plain data */
type Manifest = any;

function render(folder: string): Manifest[] {
  const result = spawnSync('kubectl', ['kustomize', folder], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${folder}: ${result.stderr}`);
  return parseAllDocuments(result.stdout).map((d) => d.toJS());
}

function validate(...folders: string[]) {
  return spawnSync(process.execPath, [VALIDATE, ...folders], {
    cwd: WORKSPACE_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

const find = (objects: Manifest[], kind: string, name: string): Manifest => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name.startsWith(name));
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

describeWithPrograms('the Kubernetes manifests', { kubectl: findProgram('kubectl') }, () => {
  it('render, and every object of both environments is valid against the Kubernetes schemas', () => {
    const result = validate();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/overlays\/staging: 10 objects valid/),
      expect.stringMatching(/overlays\/staging\/migrate: 1 objects valid \(Job\/transport-migrate\)/),
      expect.stringMatching(/overlays\/production: 10 objects valid/),
      expect.stringMatching(/overlays\/production\/migrate: 1 objects valid \(Job\/transport-migrate\)/),
    ]);
  });

  it('the validator refuses what the API server would (a wrong type, a probe without a port)', () => {
    const copy = mkdtempSync(join(tmpdir(), 'transport-k8s-'));
    try {
      cpSync(KUBERNETES, copy, { recursive: true });
      const deployment = join(copy, 'base', 'api-deployment.yaml');
      const original = readFileSync(deployment, 'utf8');
      writeFileSync(deployment, original.replace('revisionHistoryLimit: 5', 'revisionHistoryLimit: five'));
      const wrongType = validate(join(copy, 'overlays', 'production'));
      expect(wrongType.status).toBe(1);
      expect(wrongType.stderr).toContain('Deployment/transport-api: data/spec/revisionHistoryLimit must be integer');
      writeFileSync(
        deployment,
        original.replace('path: /health/ready\n              port: http', 'path: /health/ready'),
      );
      const noPort = validate(join(copy, 'overlays', 'staging'));
      expect(noPort.status).toBe(1);
      expect(noPort.stderr).toContain('readinessProbe/httpGet must have required property port');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  describe.each(['staging', 'production'])('%s', (environment) => {
    let objects: Manifest[];
    let job: Manifest;
    let api: Manifest;
    let worker: Manifest;
    let config: Manifest;
    beforeAll(() => {
      objects = render(join(KUBERNETES, 'overlays', environment));
      [job] = render(join(KUBERNETES, 'overlays', environment, 'migrate'));
      api = find(objects, 'Deployment', 'transport-api');
      worker = find(objects, 'Deployment', 'transport-worker');
      config = find(objects, 'ConfigMap', 'transport-config');
    });
    const container = (d: Manifest) => d.spec.template.spec.containers[0];
    const env = (d: Manifest) => Object.fromEntries(container(d).env.map((e: Manifest) => [e.name, e.value]));

    it('probes liveness on /health/live and readiness on /health/ready, and drains within the grace period', () => {
      for (const d of [api, worker]) {
        expect(container(d).livenessProbe.httpGet.path).toBe('/health/live');
        expect(container(d).startupProbe.httpGet.path).toBe('/health/live');
        expect(container(d).readinessProbe.httpGet.path).toBe('/health/ready');
        // SIGTERM: readiness 503 for SHUTDOWN_DELAY_MS, then requests in flight finish (HTTP_REQUEST_TIMEOUT_MS, 30 s).
        const drainSeconds = Number(config.data.SHUTDOWN_DELAY_MS) / 1000 + 30;
        expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds);
      }
    });

    it('runs the API without job workers and the workers apart, neither migrating (the Job does, first)', () => {
      expect(env(api).JOB_WORKERS).toBe('false');
      expect(env(worker).JOB_WORKERS).toBe('true');
      expect(config.data.MIGRATE_ON_START).toBe('false');
      expect(job.kind).toBe('Job');
      expect(container(job).command).toEqual(['node', 'node_modules/prisma/build/index.js', 'migrate', 'deploy']);
      expect(container(job).image).toBe(container(api).image);
      expect(container(worker).image).toBe(container(api).image);
      expect(job.metadata.namespace).toBe(api.metadata.namespace);
    });

    it('runs as a non-root user on a read-only root file system, with requests and limits', () => {
      for (const d of [api, worker, job]) {
        const pod = d.spec.template.spec;
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
        expect(pod.automountServiceAccountToken).toBe(false);
        expect(container(d).securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(container(d).resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
        expect(container(d).resources.limits.memory).toMatch(/Mi$/);
        // The only writable place: an emptyDir on /tmp (Node's compile cache).
        expect(container(d).volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
      }
    });

    it('points the Service, the disruption budgets and the autoscaler at the pods they mean', () => {
      const labels = (d: Manifest) => d.spec.template.metadata.labels;
      const service = find(objects, 'Service', 'transport-api');
      expect(labels(api)).toMatchObject(service.spec.selector);
      expect(labels(worker)).not.toMatchObject(service.spec.selector);
      expect(labels(api)).toMatchObject(
        find(objects, 'PodDisruptionBudget', 'transport-api').spec.selector.matchLabels,
      );
      expect(labels(worker)).toMatchObject(
        find(objects, 'PodDisruptionBudget', 'transport-worker').spec.selector.matchLabels,
      );
      const hpa = find(objects, 'HorizontalPodAutoscaler', 'transport-api');
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: api.metadata.name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
      for (const d of [api, worker])
        expect(container(d).envFrom).toEqual([
          { configMapRef: { name: config.metadata.name } },
          { secretRef: { name: 'transport-secrets' } },
        ]);
    });

    // Read as an SRE would (issue 45, item 10).
    it('lets only the monitoring namespace reach the metrics port, which has no key', () => {
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
      for (const d of [api, worker]) {
        const labels = d.spec.template.metadata.labels;
        const policy = policies.find((p) =>
          Object.entries(p.spec.podSelector.matchLabels).every(([k, v]) => labels[k] === v),
        );
        expect(policy).toBeDefined();
        expect(policy.spec.policyTypes).toEqual(['Ingress']);
        // Every rule that opens the metrics port opens it to the monitoring namespace only.
        const rules = policy.spec.ingress as Manifest[];
        const metricsRules = rules.filter((r) => r.ports?.some((p: Manifest) => p.port === 'metrics'));
        expect(metricsRules.length).toBeGreaterThan(0);
        for (const rule of metricsRules)
          expect(rule.from).toEqual([
            { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
          ]);
        // No rule without ports (which would open every port, the metrics one included).
        for (const rule of rules) expect(rule.ports?.length).toBeGreaterThan(0);
      }
      const apiRules = policies.find((p) => p.metadata.name.startsWith('transport-api')).spec.ingress as Manifest[];
      expect(apiRules).toContainEqual({ ports: [{ port: 'http', protocol: 'TCP' }] });
    });

    it('leaves the API replica count to its autoscaler, so an apply never scales it down', () => {
      expect(api.spec.replicas).toBeUndefined();
    });

    it('lets a node drain evict an API pod even at the autoscaler minimum', () => {
      const hpa = find(objects, 'HorizontalPodAutoscaler', 'transport-api');
      const pdb = find(objects, 'PodDisruptionBudget', 'transport-api');
      const evictable =
        pdb.spec.maxUnavailable !== undefined ? pdb.spec.maxUnavailable : hpa.spec.minReplicas - pdb.spec.minAvailable;
      expect(evictable).toBeGreaterThanOrEqual(1);
      const workerPdb = find(objects, 'PodDisruptionBudget', 'transport-worker');
      expect(workerPdb.spec.maxUnavailable).toBeGreaterThanOrEqual(1);
    });

    it('spreads the API and worker pods across nodes and zones', () => {
      for (const d of [api, worker]) {
        const spread = d.spec.template.spec.topologySpreadConstraints as Manifest[];
        const component = d.spec.template.metadata.labels['app.kubernetes.io/component'];
        expect(spread.map((c) => c.topologyKey).sort()).toEqual([
          'kubernetes.io/hostname',
          'topology.kubernetes.io/zone',
        ]);
        for (const c of spread) {
          expect(c.maxSkew).toBe(1);
          expect(c.labelSelector.matchLabels['app.kubernetes.io/component']).toBe(component);
        }
      }
    });

    it('names the release image tag in one place, which the migration Job and the pods both take', () => {
      const folder = join(KUBERNETES, 'overlays', environment);
      const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
      const naming = files.filter((f) => /newTag:/.test(readFileSync(join(folder, f), 'utf8')));
      expect(naming).toHaveLength(1);
      expect(container(job).image).toBe(container(api).image);
      expect(container(job).image).not.toMatch(/:latest$/);
    });

    it('holds settings a production start accepts, once the Secret gives the rest', () => {
      const secret = {
        DATABASE_URL: 'postgresql://transport:secret@pgbouncer:6432/transport',
        DATABASE_DIRECT_URL: 'postgresql://transport:secret@postgres:5432/transport',
        PAYMENT_PROVIDER_CLIENT_ID: 'id',
        PAYMENT_PROVIDER_CLIENT_SECRET: 'secret',
        SMS_CLIENT_ID: 'id',
        SMS_CLIENT_SECRET: 'secret',
        ACTIVATION_KEY_SECRETS: 'a-production-secret-of-forty-characters-0001',
        CERTIFICATE_SIGNING_KEYS: 'MC4CAQAwBQYDK2VwBCIEIGh9hVA79+roDUAQxEeygekMO+YR+MdWDeyjUO86C/B9',
      };
      const loaded = loadConfig({ ...config.data, ...secret, ...env(api), APP_ROOT: WORKSPACE_ROOT });
      expect(loaded).toMatchObject({ production: true, migrateOnStart: false, jobs: { workers: false } });
      expect(loaded.sms?.url).toBe(config.data.SMS_GATEWAY_URL);
      // Every key of the ConfigMap is a setting the service reads (a misspelt one would be ignored in silence).
      // The settings are read in config.ts and the helpers beside it (src/config/).
      const folder = join(WORKSPACE_ROOT, 'apps', 'api', 'src', 'config');
      const source = [join(folder, '..', 'config.ts'), ...readdirSync(folder).map((name) => join(folder, name))]
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n');
      for (const key of Object.keys(config.data)) expect(source).toMatch(new RegExp(`env\\.${key}\\b|'${key}'`));
    });
  });
});

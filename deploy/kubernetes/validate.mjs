#!/usr/bin/env node
// Renders each kustomization (kubectl kustomize, offline) and validates every object against the Kubernetes API's
// schemas with kubernetes-models (npm; the schemas are compiled into the package, so nothing is downloaded).
// Usage: node deploy/kubernetes/validate.mjs [kustomization folders...]   (default: both overlays, app and migrate)
// Prints one line per folder and exits 1 on the first folder that does not render or holds an invalid object.
// Not checked by these schemas: fields Kubernetes does not know (typos are accepted, as `kubectl apply` would not);
// apps/api/test/kubernetes.spec.ts checks the fields that matter by name.
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT = ['overlays/staging', 'overlays/staging/migrate', 'overlays/production', 'overlays/production/migrate'];
const folders = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT.map((f) => join(here, f));

/** kubernetes-models' module for an apiVersion: core v1 is `v1`, others their group and version. */
async function modelOf(apiVersion, kind) {
  const module = await import(`kubernetes-models/${apiVersion}`).catch(() => undefined);
  return module?.[kind];
}

let failed = false;
for (const folder of folders) {
  const rendered = spawnSync('kubectl', ['kustomize', folder], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (rendered.error || rendered.status !== 0) {
    console.error(
      `${relative(process.cwd(), folder)}: kubectl kustomize failed: ${rendered.error?.message ?? rendered.stderr}`,
    );
    process.exit(1);
  }
  const problems = [];
  const kinds = [];
  for (const document of parseAllDocuments(rendered.stdout)) {
    if (document.errors.length) problems.push(document.errors.map((e) => e.message).join('; '));
    const object = document.toJS();
    if (!object) continue;
    const Model = await modelOf(object.apiVersion, object.kind);
    const name = `${object.kind}/${object.metadata?.name}`;
    if (!Model) {
      problems.push(`${name}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
      kinds.push(name);
    } catch (error) {
      problems.push(`${name}: ${error.message}`);
    }
  }
  if (problems.length) {
    failed = true;
    console.error(`${relative(process.cwd(), folder)}: INVALID\n  ${problems.join('\n  ')}`);
  } else console.log(`${relative(process.cwd(), folder)}: ${kinds.length} objects valid (${kinds.join(', ')})`);
}
process.exit(failed ? 1 : 0);

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { manifestProblems } from '@decom/kube-local';
import { runDryRun } from '../dry-run/dry-run.js';

/**
 * Every manifest Decom ships or renders in its examples must be one a real API server accepts:
 * the shipped adapter configs (config/adapters/*.yaml) and the examples (config/adapters/examples),
 * rendered by a dry run of a creating pass; the objects of their recorded dry-run clusters
 * (discovery.json, which stand for what a cluster holds); the manifests inside ManifestWorks; and
 * the Kubernetes manifests in the docs. Each is checked against Kubernetes' schema for its kind
 * and kube-apiserver's rules (`manifestProblems`: what the bundled server runs on every write,
 * with unknown fields refused as under `fieldValidation=Strict`).
 */
const EXAMPLES = 'config/adapters/examples';
const CLUSTER_ID = '0190b2c3-d4e5-7f60-8a9b-1c2d3e4f5a6b';
const NODEPOOL_ID = '0190b2c3-0000-7000-8000-0000000000a1';

type Manifest = Record<string, unknown> & { apiVersion?: string; kind?: string; metadata?: { name?: string } };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipped-manifests-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A recorded responses file with the cluster not deleting, so the pass creates everything. */
function creatingResponses(name: string): string {
  const file = `${EXAMPLES}/dry-run/${name}/api-responses.json`;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!isRecord(value)) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'deleted_time' && k !== 'deleted_by')
        .map(([k, v]) => [k, strip(v)]),
    );
  };
  const out = join(dir, `${name}-responses.json`);
  writeFileSync(out, JSON.stringify(strip(JSON.parse(readFileSync(file, 'utf8')))));
  return out;
}

/** A nodepool of the recorded cluster, for the nodepool adapter (np-configmap.yaml). */
function nodepoolInputs(): { event: string; responses: string } {
  const event = join(dir, 'nodepool-event.json');
  writeFileSync(
    event,
    JSON.stringify({
      id: NODEPOOL_ID,
      kind: 'NodePool',
      href: `/api/hyperfleet/v1/clusters/${CLUSTER_ID}/nodepools/${NODEPOOL_ID}`,
      generation: 1,
      owner_references: { id: CLUSTER_ID, kind: 'Cluster' },
    }),
  );
  const responses = join(dir, 'nodepool-responses.json');
  writeFileSync(
    responses,
    JSON.stringify({
      responses: [
        {
          match: { method: 'GET', urlPattern: `/nodepools/${NODEPOOL_ID}$` },
          responses: [
            { statusCode: 200, body: { id: NODEPOOL_ID, kind: 'NodePool', name: 'np-one', generation: 1, spec: { replicas: 2 } } },
          ],
        },
        {
          // The validation adapter has applied the cluster's Namespace (np-configmap's precondition).
          match: { method: 'GET', urlPattern: `/clusters/${CLUSTER_ID}/statuses$` },
          responses: [{ statusCode: 200, body: { items: [{ adapter: 'validation', conditions: [{ type: 'Applied', status: 'True' }] }] } }],
        },
      ],
    }),
  );
  return { event, responses };
}

/** The manifests a creating pass of a task config sends to Kubernetes and Maestro, by where they come from. */
async function rendered(taskConfigFile: string, eventFile: string, apiResponsesFile: string): Promise<[string, Manifest][]> {
  const report = await runDryRun({
    taskConfigFile,
    eventFile,
    apiResponsesFile,
    env: { PULL_SECRET_TOKEN: 'example-token' },
    now: () => new Date('2026-03-25T10:00:00Z'),
  });
  return report.kubernetesCalls
    .filter((c) => (c.verb === 'create' || c.verb === 'replace') && c.object)
    .map((c) => [`${taskConfigFile} → ${c.kind}/${c.object?.metadata?.name}`, c.object as Manifest]);
}

/** A ManifestWork's payload: what the work agent applies on the spoke cluster. */
function workloadOf(origin: string, manifest: Manifest): [string, Manifest][] {
  if (manifest.kind !== 'ManifestWork') return [];
  const manifests = (manifest.spec as { workload?: { manifests?: Manifest[] } } | undefined)?.workload?.manifests ?? [];
  return manifests.map((m, i) => [`${origin} → workload.manifests[${i}] ${m.kind}/${m.metadata?.name}`, m]);
}

/** ```yaml blocks of the docs that are Kubernetes objects (apiVersion + kind, no template). */
function docManifests(): [string, Manifest][] {
  const files = [
    'README.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const out: [string, Manifest][] = [];
  for (const file of files) {
    const blocks = readFileSync(file, 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g);
    for (const [, text] of blocks) {
      if (text!.includes('{{')) continue;
      for (const doc of parseAllDocuments(text!)) {
        const value = doc.errors.length === 0 ? doc.toJS() : undefined;
        if (isRecord(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string')
          out.push([`${file} → ${value.kind}`, value as Manifest]);
      }
    }
  }
  return out;
}

/** Recorded cluster objects: each key is the object's name (the dry-run's override rule). */
function discoveryObjects(): [string, Manifest][] {
  return readdirSync(`${EXAMPLES}/dry-run`).flatMap((name) => {
    const file = `${EXAMPLES}/dry-run/${name}/discovery.json`;
    const objects = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Manifest>;
    return Object.entries(objects).map(([key, object]): [string, Manifest] => [
      `${file} → ${object.kind}/${key}`,
      { ...object, metadata: { ...object.metadata, name: key } },
    ]);
  });
}

async function everyShippedManifest(): Promise<[string, Manifest][]> {
  const examples = readdirSync(`${EXAMPLES}/dry-run`);
  const all: [string, Manifest][] = [];
  for (const name of examples) {
    all.push(...(await rendered(`${EXAMPLES}/${name}.yaml`, `${EXAMPLES}/dry-run/${name}/event.json`, creatingResponses(name))));
  }
  // The shipped default adapter renders with the inputs of its by-selector variant.
  all.push(
    ...(await rendered(
      'config/adapters/validation.yaml',
      `${EXAMPLES}/dry-run/validation-by-selector/event.json`,
      creatingResponses('validation-by-selector'),
    )),
  );
  const nodepool = nodepoolInputs();
  all.push(...(await rendered('config/adapters/np-configmap.yaml', nodepool.event, nodepool.responses)));
  all.push(...all.flatMap(([origin, m]) => workloadOf(origin, m)));
  all.push(...discoveryObjects(), ...docManifests());
  return all;
}

describe('manifests Decom ships or renders in its examples are valid Kubernetes objects', () => {
  let manifests: [string, Manifest][];
  beforeAll(async () => {
    manifests = await everyShippedManifest();
  });

  it('covers every shipped config, every example and the kinds they create', () => {
    const origins = manifests.map(([origin]) => origin);
    for (const config of [
      'config/adapters/validation.yaml',
      'config/adapters/np-configmap.yaml',
      ...readdirSync(`${EXAMPLES}/dry-run`).map((n) => `${EXAMPLES}/${n}.yaml`),
    ]) {
      expect(origins.some((o) => o.startsWith(`${config} →`))).toBe(true);
    }
    const kinds = new Set(manifests.map(([, m]) => m.kind));
    for (const kind of ['Namespace', 'ConfigMap', 'Secret', 'Job', 'ManifestWork']) expect(kinds).toContain(kind);
    expect(origins).toContain(`config/adapters/validation.yaml → Job/validation-${CLUSTER_ID}-gen3`);
  });

  it('each one passes Kubernetes schema and validation for its kind (custom resources: their payload)', () => {
    const problems = manifests
      .filter(([, m]) => m.kind !== 'ManifestWork')
      .map(([origin, m]) => [origin, manifestProblems(m)] as const)
      .filter(([, p]) => p.length > 0);
    expect(problems).toEqual([]);
  });

  it('the check refuses what kube-apiserver refuses (the old spec-less Job, a number in ConfigMap data, an unknown field)', () => {
    expect(manifestProblems({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'validation-x-gen1', namespace: 'x' } })).toEqual([
      'spec.template.spec.containers: Required value',
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    expect(manifestProblems({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 1 } })).toEqual([
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data.a of type string',
    ]);
    expect(manifestProblems({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, strinData: { a: 'b' } })).toEqual([
      'strinData: unknown field',
    ]);
  });
});

/**
 * The generated OpenAPI document agrees with HyperFleet's published spec on the operations both have:
 * same path and method, same operationId, the same path parameters, every query parameter HyperFleet names
 * (under the name the API really reads), and every response code HyperFleet declares. The spec's shape is
 * vendored in test/fixtures/hyperfleet-openapi/shared-operations.json with its source path and commit.
 * Where the API and its published spec differ, the document follows the API; those differences are listed
 * here, each with its reason, and checked both ways so a change on either side shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KindRegistry } from '@decom/domain';
import { loadEntitiesConfig } from '@decom/config';
import { standaloneOpenApiDocument } from './standalone-document.js';

interface SpecOperation {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly parameters: readonly [name: string, location: string][];
  readonly responses: readonly string[];
}

const fixture = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/hyperfleet-openapi/shared-operations.json'), 'utf8')) as {
  operations: SpecOperation[];
};

/** The spec's list parameters `pageSize`/`orderBy`: HyperFleet's API reads `size`/`order` (pkg/handlers/list_params.go). */
const QUERY_NAME_THE_API_READS: Readonly<Record<string, string>> = { pageSize: 'size', orderBy: 'order' };
/** The spec POSTs adapter statuses; HyperFleet's current API and clients PUT them (docs/hyperfleet-compatibility.md). */
const STATUS_REPORTS: Readonly<Record<string, { method: string; operationId: string }>> = {
  postClusterStatuses: { method: 'put', operationId: 'putClusterStatuses' },
  postNodePoolStatuses: { method: 'put', operationId: 'putNodePoolStatuses' },
};

describe("the generated OpenAPI document and HyperFleet's published spec", () => {
  let doc: Record<string, any>;

  beforeAll(async () => {
    doc = await standaloneOpenApiDocument(new KindRegistry(await loadEntitiesConfig('config/entities.yaml')));
  });

  /** Our operation at HyperFleet's full path (the document's paths are relative to `servers[0]`). */
  const ours = (path: string, method: string) => doc.paths[path.slice(doc.servers[0].url.length)]?.[method];

  it.each(fixture.operations.map((op) => [`${op.method.toUpperCase()} ${op.path} ${op.operationId}`, op] as const))('%s', (_name, spec) => {
    const report = STATUS_REPORTS[spec.operationId];
    if (report) expect(ours(spec.path, spec.method)).toBeUndefined();
    const operation = ours(spec.path, report?.method ?? spec.method);
    expect(operation?.operationId).toBe(report?.operationId ?? spec.operationId);
    const params = (operation.parameters ?? []).map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    const pathParams = (list: readonly string[]) => list.filter((p) => p.startsWith('path:')).sort();
    const wanted = spec.parameters.map(
      ([name, location]) => `${location}:${location === 'query' ? (QUERY_NAME_THE_API_READS[name] ?? name) : name}`,
    );
    expect(pathParams(params)).toEqual(pathParams(wanted));
    expect(params).toEqual(expect.arrayContaining(wanted));
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining([...spec.responses]));
  });

  it('names no parameter the way only the spec does', () => {
    const names = Object.values(doc.paths).flatMap((item: any) =>
      Object.values(item).flatMap((op: any) => (op?.parameters ?? []).map((p: { name: string }) => p.name)),
    );
    for (const specOnly of Object.keys(QUERY_NAME_THE_API_READS)) expect(names).not.toContain(specOnly);
  });
});

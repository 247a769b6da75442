/**
 * GraphQL operator commands and dashboard queries over HTTP (`POST /graphql`), same rules and errors as REST.
 */
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe('GraphQL API', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ admins: 'operator@example.com' });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const gql = async (query: string, variables: object = {}, identity = 'operator@example.com') => {
    const response = await fetch(`${fixture.engine.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': identity },
      body: JSON.stringify({ query, variables }),
    });
    return { ...((await response.json()) as { data?: any; errors?: any[] }), httpStatus: response.status };
  };

  it('queries resources and the stuck-deletion dashboard, deletes, pauses and force-deletes with an audit', async () => {
    const c = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'gql-1', spec: { region: 'eu' } })).body;
    const read = await gql('query($id: ID!) { resource(id: $id) { id name spec generation conditions { type status reason } } }', {
      id: c.id,
    });
    expect(read.data.resource).toMatchObject({ id: c.id, name: 'gql-1', spec: { region: 'eu' }, generation: 1 });
    expect(read.data.resource.conditions[0]).toMatchObject({ type: 'Reconciled', status: 'False' });

    const deleted = await gql('mutation($id: ID!) { deleteResource(id: $id) { deleted_time generation deleted_by } }', { id: c.id });
    expect(deleted.data.deleteResource).toMatchObject({ generation: 2, deleted_by: 'operator@example.com' });

    const paused = await gql('mutation($id: ID!) { pause(id: $id, reason: "look first") { conditions { type status } } }', { id: c.id });
    expect(paused.data.pause.conditions).toEqual(expect.arrayContaining([{ type: 'Paused', status: 'True' }]));

    const dashboard = await gql('{ finalizing { id waiting_on_adapters reconciled_reason } }');
    expect(dashboard.data.finalizing.find((f: any) => f.id === c.id)).toMatchObject({ waiting_on_adapters: ['validation'] });

    const list = await gql('{ resources(kind: "Cluster", deleting: true) { total items { id } } }');
    expect(list.data.resources.items.map((i: any) => i.id)).toContain(c.id);

    const forced = await gql('mutation($id: ID!) { forceDelete(id: $id, reason: "INC-77 via GraphQL") }', { id: c.id });
    expect(forced.data.forceDelete).toBe(true);
    const history = await gql('query($id: ID!) { history(id: $id) { type caller data } }', { id: c.id });
    expect(history.data.history.find((h: any) => h.type === 'ForceDeleted')).toMatchObject({
      caller: 'operator@example.com',
      data: { reason: 'INC-77 via GraphQL' },
    });
    expect((await gql('query($id: ID!) { resource(id: $id) { id } }', { id: c.id })).data.resource).toBeNull();
  });

  it('reports domain errors with the REST problem under extensions.problem', async () => {
    const c = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'gql-2', spec: {} })).body;
    const notFinalizing = await gql('mutation($id: ID!) { forceDelete(id: $id, reason: "x") }', { id: c.id });
    expect(notFinalizing.errors![0].extensions.problem).toMatchObject({ status: 409, code: 'HYPERFLEET-CNF-003' });
    const noReason = await gql('mutation($id: ID!) { pause(id: $id, reason: " ") { id } }', { id: c.id });
    expect(noReason.errors![0].extensions.problem).toMatchObject({ status: 400, errors: [{ field: 'reason' }] });
    const stranger = await gql('mutation($id: ID!) { forceOrphan(id: $id, reason: "x") { id } }', { id: c.id }, 'mallory@example.com');
    expect(stranger.errors![0].extensions.problem.status).toBe(403);
    const badSize = await gql('{ resources(kind: "Cluster", size: 100000) { total } }');
    expect(badSize.errors![0].extensions.problem).toMatchObject({ status: 400, errors: [{ field: 'size', constraint: 'max' }] });
    const badAge = await gql('{ finalizing(olderThanSeconds: -5) { id } }');
    expect(badAge.errors![0].extensions.problem.status).toBe(400);
    const missing = await gql('mutation { deleteResource(id: "0190b6a4-0000-7000-8000-000000000000") { id } }');
    expect(missing.errors![0].extensions.problem).toMatchObject({ status: 404, code: 'HYPERFLEET-NTF-001' });
  });

  it('keeps what earlier mutations of a document recorded when a later one is refused', async () => {
    const c = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'gql-3', spec: {} })).body;
    const both = await gql(
      'mutation($id: ID!) { pause(id: $id, reason: "hold") { id generation } forceDelete(id: $id, reason: "not finalizing") }',
      { id: c.id },
    );
    expect(both.data.pause).toMatchObject({ id: c.id });
    expect(both.data.forceDelete).toBeNull();
    expect(both.errors).toHaveLength(1);
    expect(both.errors![0]).toMatchObject({ path: ['forceDelete'], extensions: { problem: { status: 409 } } });
    const paused = await api.call('GET', `/clusters/${c.id}`);
    expect(paused.body.status.conditions.find((x: { type: string }) => x.type === 'Paused')).toMatchObject({ status: 'True' });
  });

  it('answers 200 once execution started (the outcome per field), 4xx when the document never ran', async () => {
    const overLimit = await gql('{ audit(limit: 1000000) { type } }');
    expect(overLimit.httpStatus).toBe(200);
    expect(overLimit.errors![0].extensions.problem.status).toBe(400);
    const unknownField = await gql('{ nosuchfield }');
    expect(unknownField.httpStatus).toBe(400);
    expect(unknownField.data).toBeUndefined();
  });
});

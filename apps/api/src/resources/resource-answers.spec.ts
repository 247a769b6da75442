import { KindRegistry, ResourceNotFound, type ResourceState, type TreeState } from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';
import type { RecordedOutcome } from '../commands/recorded-commands.js';
import { ResourceAnswers } from './resource-answers.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['dns'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: [] },
]);

// With the read side not reached after the command, the answer must not ask the read model at all.
const unreachableReadModel = {
  get: () => Promise.reject(new Error('the read model was asked although the read side was not reached')),
} as unknown as ResourceQueries;

const cluster: ResourceState = {
  id: 'c1',
  kind: 'Cluster',
  name: 'prod',
  spec: { region: 'eu' },
  labels: { team: 'a' },
  generation: 1,
  created_time: '2026-12-01T10:00:00.000Z',
  created_by: 'alice',
  updated_time: '2026-12-01T10:00:00.000Z',
  updated_by: 'alice',
  adapter_statuses: {},
};

const nodePool: ResourceState = {
  id: 'np1',
  kind: 'NodePool',
  name: 'workers',
  spec: { size: 3 },
  labels: {},
  owner_references: { id: 'c1', kind: 'Cluster' },
  generation: 2,
  created_time: '2026-12-01T10:01:00.000Z',
  created_by: 'alice',
  updated_time: '2026-12-01T10:02:00.000Z',
  updated_by: 'bob',
  deleted_time: '2026-12-01T10:02:00.000Z',
  adapter_statuses: {},
  deletion_protection: { caller: 'bob', reason: 'keep', time: '2026-12-01T10:01:30.000Z' },
};

function outcomeOf(resources: readonly ResourceState[]): RecordedOutcome {
  const state: TreeState = { resources: new Map(resources.map((r) => [r.id, r])) };
  return { events: [], state, before: { resources: new Map() }, readSideCurrent: false };
}

describe('ResourceAnswers.present, the read side not reached after the command', () => {
  const answers = new ResourceAnswers(kinds, unreachableReadModel);

  it('answers from the decided state: hrefs from the owners chain, conditions computed by the domain', async () => {
    const answer = await answers.present(outcomeOf([cluster, nodePool]), 'np1');

    expect(answer).toMatchObject({
      id: 'np1',
      kind: 'NodePool',
      href: '/api/hyperfleet/v1/clusters/c1/nodepools/np1',
      name: 'workers',
      spec: { size: 3 },
      generation: 2,
      owner_references: { id: 'c1', kind: 'Cluster', href: '/api/hyperfleet/v1/clusters/c1' },
      deleted_time: '2026-12-01T10:02:00.000Z',
      deleted_by: '',
      deletion_policy: 'Delete',
      effective_deletion_policy: { policy: 'Delete', source: 'default' },
      deletion_protection: true,
      deletion_protection_set: { caller: 'bob', reason: 'keep', time: '2026-12-01T10:01:30.000Z' },
    });
    expect(answer.status.conditions.map((c) => c.type)).toContain('Reconciled');
    // Empty labels are omitted; what only the read model derives is absent rather than guessed.
    expect(answer).not.toHaveProperty('labels');
    expect(answer).not.toHaveProperty('references');
    expect(answer).not.toHaveProperty('deletion_propagation');
    expect(answer).not.toHaveProperty('deletion_dispatch');
  });

  it('keeps a top-level resource without owner_references and with its labels', async () => {
    const answer = await answers.present(outcomeOf([cluster]), 'c1');

    expect(answer.href).toBe('/api/hyperfleet/v1/clusters/c1');
    expect(answer.labels).toEqual({ team: 'a' });
    expect(answer).not.toHaveProperty('owner_references');
    expect(answer).not.toHaveProperty('deleted_time');
    expect(answer).not.toHaveProperty('deletion_protection');
  });

  it('refuses a resource the command did not decide on', async () => {
    await expect(answers.present(outcomeOf([cluster]), 'missing')).rejects.toBeInstanceOf(ResourceNotFound);
  });
});

describe('ResourceAnswers.present, the read side reached after the command', () => {
  it("takes what only the read model derives from its view, the deletion's dispatch included, as a GET would", async () => {
    const dispatch = { due: [], waiting: [{ adapter: 'dns', reason: 'ChildrenPresent' }] };
    const view = {
      href: '/api/hyperfleet/v1/clusters/c1',
      status: { conditions: [{ type: 'Reconciled', status: 'False' }] },
      deletion_policy: 'Delete',
      effective_deletion_policy: { policy: 'Delete', source: 'default' },
      deletion_propagation: 'Foreground',
      deletion_required_adapters: ['dns'],
      deletion_dispatch: dispatch,
    };
    const readModel = { get: (id: string) => Promise.resolve(id === 'c1' ? view : undefined) } as unknown as ResourceQueries;
    const deleting: ResourceState = { ...cluster, generation: 2, deleted_time: '2026-12-01T11:00:00.000Z', deleted_by: 'alice' };
    const outcome: RecordedOutcome = { ...outcomeOf([deleting]), readSideCurrent: true };

    const answer = await new ResourceAnswers(kinds, readModel).present(outcome, 'c1');

    expect(answer).toMatchObject({
      generation: 2,
      deleted_time: '2026-12-01T11:00:00.000Z',
      deletion_propagation: 'Foreground',
      deletion_required_adapters: ['dns'],
      deletion_dispatch: dispatch,
      status: { conditions: [{ type: 'Reconciled', status: 'False' }] },
    });
  });
});

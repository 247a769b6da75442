import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry, NameAlreadyTaken, ResourceNotFound, treeStreamName } from '@decom/domain';
import { SqliteEventStore } from '@decom/event-store';
import { COMMAND_HANDLERS } from './index.js';
import { CreateResourceCommand } from './create-resource.handler.js';
import { PatchResourceCommand } from './patch-resource.handler.js';
import { SetPausedCommand } from './set-paused.handler.js';
import { jest } from '@jest/globals';
import { OPERATOR_CONFLICT_RETRIES, ResourceTreeRepository } from './resource-tree.repository.js';
import { StreamLocator } from './stream-locator.js';
import { KIND_REGISTRY } from './tokens.js';

/**
 * The command handlers as Nest wires them (inherited constructor, `@CommandHandler` per command subclass) on a
 * real SQLite event store: each command reaches its own decision and the events land in the tree's stream.
 */
describe('TreeCommandHandler through the CommandBus', () => {
  let dir: string;
  let store: SqliteEventStore;
  let module: TestingModule;
  let bus: CommandBus;
  let repository: ResourceTreeRepository;
  const caller = { caller: 'alice@example.com' };
  const metadata = () => ({ now: new Date().toISOString(), caller: caller.caller });
  const clusterId = '01a23450-0000-7000-8000-0000000000c1';
  const otherId = '01a23450-0000-7000-8000-0000000000c2';
  const create = (id: string) =>
    new CreateResourceCommand(
      { type: 'CreateResource', id, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, metadata: metadata() },
      caller,
    );

  beforeEach(async () => {
    const kinds = new KindRegistry(await loadEntitiesConfig(resolve('config/entities.yaml')));
    dir = await mkdtemp(join(tmpdir(), 'decom-commands-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    repository = new ResourceTreeRepository(store);
    module = await Test.createTestingModule({
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: KIND_REGISTRY, useValue: kinds },
        { provide: ResourceTreeRepository, useValue: repository },
        // Only top-level kinds here, so the locator never asks the read side.
        { provide: StreamLocator, useValue: new StreamLocator(kinds, { locate: () => Promise.resolve(undefined) }) },
        ...COMMAND_HANDLERS,
      ],
    }).compile();
    await module.init();
    bus = module.get(CommandBus);
  });
  afterEach(async () => {
    await module.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('routes each command to its own decision and appends to the tree stream', async () => {
    const appends = jest.spyOn(repository, 'decideAndAppend');
    const created = await bus.execute(create(clusterId));
    expect(created.events.map((e) => e.type)).toEqual(['ResourceCreated']);

    const patched = await bus.execute(
      new PatchResourceCommand(
        { type: 'PatchResource', id: clusterId, kind: 'Cluster', spec: { region: 'eu' }, metadata: metadata() },
        caller,
      ),
    );
    expect(patched.state.resources.get(clusterId)?.generation).toBe(2);

    const paused = await bus.execute(
      new SetPausedCommand(
        { type: 'SetPaused', id: clusterId, kind: 'Cluster', paused: true, reason: 'maintenance', metadata: metadata() },
        caller,
      ),
    );
    expect(paused.events.map((e) => e.type)).toEqual(['ResourcePaused']);
    expect((await store.readStream(treeStreamName('Cluster', clusterId))).map((e) => e.type)).toEqual([
      'ResourceCreated',
      'SpecChanged',
      'ResourcePaused',
    ]);
    // The operator's pause gets the longer conflict budget; the others the repository's default.
    expect(appends.mock.calls.map(([, , context]) => context.maxConflictRetries)).toEqual([
      undefined,
      undefined,
      OPERATOR_CONFLICT_RETRIES,
    ]);
  });

  it('answers NameAlreadyTaken with the holder when the store refuses the name reservation', async () => {
    await bus.execute(create(clusterId));
    const refused = bus.execute(create(otherId));
    await expect(refused).rejects.toBeInstanceOf(NameAlreadyTaken);
    await expect(refused).rejects.toMatchObject({ existingId: clusterId });
  });

  it('refuses a command on a resource that was never created', async () => {
    await expect(
      bus.execute(
        new PatchResourceCommand({ type: 'PatchResource', id: otherId, kind: 'Cluster', spec: {}, metadata: metadata() }, caller),
      ),
    ).rejects.toBeInstanceOf(ResourceNotFound);
  });
});

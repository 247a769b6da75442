import {
  BreakGlassNotPending,
  BreakGlassRequestNotFound,
  NotFinalizing,
  ResourceNotFound,
  SelfApproval,
  ValidationFailed,
  breakGlassStatus,
  decideApproveBreakGlass,
  decideRejectBreakGlass,
  decideRequestBreakGlass,
  fold,
  KindRegistry,
  type ApproveBreakGlass,
  type RejectBreakGlass,
  type RequestBreakGlass,
  type ResourceEvent,
} from '@decom/domain';

const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const T2 = '2026-12-01T10:02:00.000Z';
const T3 = '2026-12-01T10:03:00.000Z';
const IN_AN_HOUR = '2026-12-01T11:02:00.000Z';
const C = 'c0000000-0000-7000-8000-000000000001';
const NP = 'c0000000-0000-7000-8000-000000000002';
const R = 'b0000000-0000-7000-8000-000000000009';
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

type BreakGlassCommand = RequestBreakGlass | ApproveBreakGlass | RejectBreakGlass;

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['dns'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: [] },
]);

/** given(history).when(command).then(events) / .thenThrows(Error), over the break-glass deciders. */
function given(history: readonly ResourceEvent[]) {
  return {
    when(command: BreakGlassCommand) {
      const state = fold(history);
      const run = () =>
        command.type === 'RequestBreakGlass'
          ? decideRequestBreakGlass(command, state, kinds)
          : command.type === 'ApproveBreakGlass'
            ? decideApproveBreakGlass(command, state, kinds)
            : decideRejectBreakGlass(command, state);
      return {
        then: (expected: readonly ResourceEvent[]) => expect(run()).toEqual(expected),
        events: run,
        thenThrows: (errorClass: abstract new (...args: never[]) => Error, message?: string | RegExp) => {
          expect(run).toThrow(errorClass as unknown as new () => Error);
          if (message) expect(run).toThrow(message);
        },
      };
    },
  };
}

const created: ResourceEvent = {
  type: 'ResourceCreated',
  data: { id: C, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: ALICE },
};
const nodepool: ResourceEvent = {
  type: 'ResourceCreated',
  data: {
    id: NP,
    kind: 'NodePool',
    name: 'np',
    spec: {},
    labels: {},
    owner_references: { id: C, kind: 'Cluster' },
    generation: 1,
    created_time: T0,
    created_by: ALICE,
  },
};
const deleting: ResourceEvent = {
  type: 'DeletionRequested',
  data: {
    id: C,
    kind: 'Cluster',
    generation: 2,
    deleted_time: T1,
    deleted_by: ALICE,
    deletion_policy: 'Delete',
    required_adapters: ['dns'],
  },
};
const paused: ResourceEvent = {
  type: 'ResourcePaused',
  data: { id: C, kind: 'Cluster', caller: ALICE, reason: 'investigating', paused_time: T1 },
};

const request = (action: RequestBreakGlass['action'], caller = ALICE, now = T2): RequestBreakGlass => ({
  type: 'RequestBreakGlass',
  request_id: R,
  action,
  kind: 'Cluster',
  id: C,
  reason: 'adapter stuck on a deleted account',
  expires_after_seconds: 3600,
  metadata: { now, caller },
});
const approve = (caller = BOB, now = T3, reason?: string): ApproveBreakGlass => ({
  type: 'ApproveBreakGlass',
  request_id: R,
  ...(reason !== undefined && { reason }),
  metadata: { now, caller },
});
const reject = (caller = BOB, reason = 'not yet: the adapter team is on it'): RejectBreakGlass => ({
  type: 'RejectBreakGlass',
  request_id: R,
  reason,
  metadata: { now: T3, caller },
});
const requested = (action: RequestBreakGlass['action'], generation: number): ResourceEvent => ({
  type: 'BreakGlassRequested',
  data: {
    request_id: R,
    action,
    id: C,
    kind: 'Cluster',
    generation,
    reason: 'adapter stuck on a deleted account',
    requested_by: ALICE,
    requested_time: T2,
    expires_at: IN_AN_HOUR,
  },
});

describe('two-person rule › a break-glass action becomes a request', () => {
  it('records BreakGlassRequested with the caller, reason, target, its generation and expires_at = now + expiry', () => {
    given([created, deleting])
      .when(request('force_delete'))
      .then([requested('force_delete', 2)]);
  });

  it('refuses at once what the action itself would refuse: force delete of a resource not Finalizing (409)', () => {
    given([created]).when(request('force_delete')).thenThrows(NotFinalizing);
    given([created]).when(request('force_orphan')).thenThrows(NotFinalizing);
  });

  it('refuses a missing reason (400) and an unknown resource (404)', () => {
    given([created, deleting])
      .when({ ...request('force_delete'), reason: '  ' })
      .thenThrows(ValidationFailed, 'reason is required');
    given([]).when(request('force_delete')).thenThrows(ResourceNotFound);
  });

  it('records nothing for a request that would change nothing (unpause of a resource not paused)', () => {
    given([created]).when(request('unpause')).then([]);
  });

  it('a leak deletion request names the exact objects; none to delete is a 400', () => {
    const objects = [
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'hf', name: 'dns-gone', adapter: 'dns', owner: { kind: 'Cluster', id: C } },
    ];
    const [event] = given([])
      .when({ ...request('delete_leaks'), objects })
      .events();
    expect(event).toEqual({
      type: 'BreakGlassRequested',
      data: expect.objectContaining({ action: 'delete_leaks', id: R, kind: 'Leaks', generation: 0, objects }),
    });
    given([])
      .when({ ...request('delete_leaks'), objects: [] })
      .thenThrows(ValidationFailed, 'no leaked objects');
  });
});

describe('two-person rule › a different administrator approves; the action runs against the requested generation', () => {
  it('force delete: BreakGlassApproved, then ForceDeleted (requester and reason) and HardDeleted children first, in one decision', () => {
    const events = given([created, nodepool, deleting, requested('force_delete', 2)])
      .when(approve(BOB, T3, 'checked with the adapter team'))
      .events();
    expect(events.map((e) => e.type)).toEqual(['BreakGlassApproved', 'ForceDeleted', 'HardDeleted', 'HardDeleted']);
    expect(events[0]).toEqual({
      type: 'BreakGlassApproved',
      data: { request_id: R, id: C, kind: 'Cluster', approved_by: BOB, reason: 'checked with the adapter team', approved_time: T3 },
    });
    expect(events[1]!.data).toMatchObject({
      id: C,
      caller: ALICE,
      reason: 'adapter stuck on a deleted account',
      force_deleted_time: T3,
      generation: 2,
    });
    expect(events.slice(2).map((e) => e.data.id)).toEqual([NP, C]);
  });

  it('force orphan and unpause run their own decisions', () => {
    expect(
      given([created, deleting, requested('force_orphan', 2)])
        .when(approve())
        .events()
        .map((e) => e.type),
    ).toEqual(['BreakGlassApproved', 'ForceOrphaned']);
    const unpause = given([created, paused, requested('unpause', 1)])
      .when(approve())
      .events();
    expect(unpause[1]).toEqual({
      type: 'ResourceUnpaused',
      data: { id: C, kind: 'Cluster', caller: ALICE, reason: 'adapter stuck on a deleted account', unpaused_time: T3 },
    });
  });

  it('the requester cannot approve their own request (403)', () => {
    given([created, deleting, requested('force_delete', 2)])
      .when(approve(ALICE))
      .thenThrows(SelfApproval, 'a different administrator must approve it');
  });

  it('a resource whose generation moved voids the request: BreakGlassVoided names both generations, nothing runs', () => {
    given([
      created,
      paused,
      requested('unpause', 1),
      {
        type: 'SpecChanged',
        data: { id: C, kind: 'Cluster', spec: { v: 2 }, labels: {}, generation: 2, updated_time: T2, updated_by: ALICE },
      },
    ])
      .when(approve())
      .then([
        {
          type: 'BreakGlassVoided',
          data: { request_id: R, id: C, kind: 'Cluster', requested_generation: 1, current_generation: 2, voided_by: BOB, voided_time: T3 },
        },
      ]);
  });

  it('a target gone meanwhile voids the request without a current generation', () => {
    const gone: ResourceEvent = { type: 'HardDeleted', data: { id: C, kind: 'Cluster', hard_deleted_time: T2, cause: 'Reconciled' } };
    given([created, deleting, requested('force_orphan', 2), gone])
      .when(approve())
      .then([
        {
          type: 'BreakGlassVoided',
          data: { request_id: R, id: C, kind: 'Cluster', requested_generation: 2, voided_by: BOB, voided_time: T3 },
        },
      ]);
  });

  it('an expired request cannot be approved (409); expiry is read from the command clock', () => {
    given([created, deleting, requested('force_delete', 2)])
      .when(approve(BOB, IN_AN_HOUR))
      .thenThrows(BreakGlassNotPending, 'has expired');
    expect(breakGlassStatus(fold([requested('force_delete', 2)]).break_glass!.get(R)!, '2026-12-01T11:01:59.999Z')).toBe('Pending');
  });

  it('a decided request cannot be approved again (409), an unknown one is a 404', () => {
    const history = [created, deleting, requested('force_orphan', 2)];
    const afterApproval = [...history, ...given(history).when(approve()).events()];
    given(afterApproval).when(approve('carol@example.com')).thenThrows(BreakGlassNotPending, 'is Approved, not Pending');
    given([created]).when(approve()).thenThrows(BreakGlassRequestNotFound);
  });

  it('a leak deletion approval records BreakGlassApproved only (the caller deletes the objects)', () => {
    const objects = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', adapter: 'dns', owner: { kind: 'Cluster', id: C } }];
    const history = given([])
      .when({ ...request('delete_leaks'), objects })
      .events();
    expect(
      given(history)
        .when(approve())
        .events()
        .map((e) => e.type),
    ).toEqual(['BreakGlassApproved']);
  });
});

describe('two-person rule › reject', () => {
  it('records BreakGlassRejected with who and why; the request is then Rejected and cannot be approved', () => {
    const history = [created, deleting, requested('force_delete', 2)];
    given(history)
      .when(reject())
      .then([
        {
          type: 'BreakGlassRejected',
          data: {
            request_id: R,
            id: C,
            kind: 'Cluster',
            rejected_by: BOB,
            reason: 'not yet: the adapter team is on it',
            rejected_time: T3,
          },
        },
      ]);
    const rejected = [...history, ...given(history).when(reject()).events()];
    expect(breakGlassStatus(fold(rejected).break_glass!.get(R)!, T3)).toBe('Rejected');
    given(rejected).when(approve('carol@example.com')).thenThrows(BreakGlassNotPending);
  });

  it('the requester may withdraw their own request; a reason is required', () => {
    expect(
      given([created, deleting, requested('force_delete', 2)])
        .when(reject(ALICE))
        .events()[0]!.type,
    ).toBe('BreakGlassRejected');
    given([created, deleting, requested('force_delete', 2)])
      .when(reject(BOB, ''))
      .thenThrows(ValidationFailed);
  });
});

describe('two-person rule › abandoning an adapter is a break-glass action too', () => {
  // Abandoning every adapter of the frozen set ends in a hard delete with cleanup skipped: the same reach as a
  // force delete, so under the rule it waits for a second administrator as well.
  const abandonRequest = (): RequestBreakGlass => ({ ...request('abandon_adapter'), adapter: 'dns' });

  it('records the request with the adapter; an adapter outside the frozen set is refused at once (409)', () => {
    const [event] = given([created, deleting]).when(abandonRequest()).events();
    expect(event).toEqual({
      type: 'BreakGlassRequested',
      data: expect.objectContaining({ action: 'abandon_adapter', adapter: 'dns', generation: 2 }),
    });
    expect(() =>
      given([created, deleting])
        .when({ ...abandonRequest(), adapter: 'unknown' })
        .events(),
    ).toThrow(/not|frozen|pending/i);
  });

  it("approved by another administrator: the adapter's forced AdapterFinalized, in the requester's name", () => {
    const [event] = given([created, deleting]).when(abandonRequest()).events();
    const events = given([created, deleting, event!]).when(approve()).events();
    expect(events.map((e) => e.type)).toEqual(['BreakGlassApproved', 'AdapterStatusReported', 'AdapterFinalized']);
    expect(events[2]!.data).toMatchObject({ adapter: 'dns', forced: true, caller: ALICE, reason: 'adapter stuck on a deleted account' });
  });

  it('the requester cannot approve it (403)', () => {
    const [event] = given([created, deleting]).when(abandonRequest()).events();
    given([created, deleting, event!]).when(approve(ALICE)).thenThrows(SelfApproval);
  });
});

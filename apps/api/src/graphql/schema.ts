/**
 * The GraphQL schema for operator commands and dashboards (design card: "REST/GraphQL operator commands,
 * stuck-deletion dashboards"). Field names are the REST/HyperFleet names, so one grep finds both.
 */
export const TYPE_DEFS = /* GraphQL */ `
  scalar JSONObject

  type Condition {
    type: String!
    status: String!
    reason: String
    message: String
    observed_generation: Int!
    created_time: String!
    last_updated_time: String!
    last_transition_time: String!
  }

  type OwnerReference {
    id: ID!
    kind: String!
    href: String!
  }

  type Resource {
    id: ID!
    kind: String!
    href: String!
    name: String!
    spec: JSONObject!
    labels: JSONObject
    generation: Int!
    conditions: [Condition!]!
    owner_references: OwnerReference
    created_time: String!
    updated_time: String!
    created_by: String!
    updated_by: String!
    deleted_time: String
    deleted_by: String
    deletion_policy: String!
    "The deletion policy and its source (own, inherited from <Kind>/<id>, force-orphan on <Kind>/<id>, default)."
    effective_deletion_policy: EffectiveDeletionPolicy!
    "Once deleting: Foreground or Background."
    deletion_propagation: String
    "Once deleting: the required adapters frozen when the deletion was requested."
    deletion_required_adapters: [String!]
    "Once deleting: what dispatch may do, from the stored deletion status (action run with adapters, or hold with reason)."
    deletion_dispatch: DeletionDispatch
    "Only on the answer of deleteResource(dryRun: true): what the DELETE would do; the resource itself is shown as stored, unchanged."
    deletion_preview: DeletionPreview
    "true while deletion protection is set: a DELETE reaching this resource (itself or an ancestor's cascade) is refused (409, extensions.problem.protected_resources)."
    deletion_protection: Boolean!
    "Who set the protection, why (empty when no reason was given) and when; null while unprotected."
    deletion_protection_set: OperatorMark
  }

  type OperatorMark {
    caller: String!
    reason: String!
    time: String!
  }

  type DeletionDispatch {
    action: String!
    adapters: [String!]
    reason: String
  }

  "A DELETE decided on current state and not carried out (REST DELETE ...?dryRun=All); a refusal is the DELETE's error, with extensions.problem.dry_run true."
  type DeletionPreview {
    dry_run: Boolean!
    "WouldDelete (resources would be marked) or AlreadyDeleting (a DELETE would record nothing)."
    outcome: String!
    target: DeletionPreviewTarget!
    "As passed; absent: each kind's configured propagation (shown per resource)."
    propagationPolicy: String
    delete_for_move: Boolean!
    "Every resource the DELETE would mark, in hard-delete order (children before their parent)."
    resources: [PreviewedDeletion!]!
  }

  type DeletionPreviewTarget {
    id: ID!
    kind: String!
    name: String
    href: String
  }

  type PreviewedDeletion {
    id: ID!
    kind: String!
    name: String!
    "The generation the mark would set (current + 1)."
    generation: Int!
    "The resource whose DELETE cascades here; null for the target itself."
    cascaded_from: ID
    deletion_policy: String!
    deletion_policy_source: String!
    deletion_propagation: String!
    "The adapters that would be frozen for this deletion, each to report Finalized=True."
    required_adapters: [String!]!
    "What the plan implies beyond the record (e.g. a Namespace kept for objects an Orphan resource releases); null when nothing."
    notes: [String!]
  }

  type EffectiveDeletionPolicy {
    policy: String!
    source: String!
  }

  type ResourcePage {
    page: Int!
    size: Int!
    total: Int!
    items: [Resource!]!
  }

  type AdapterCondition {
    type: String!
    status: String!
    reason: String
    message: String
    last_transition_time: String!
  }

  type AdapterStatus {
    adapter: String!
    observed_generation: Int!
    conditions: [AdapterCondition!]!
    created_time: String!
    last_report_time: String!
  }

  type UnhealthyAdapter {
    adapter: String!
    reason: String!
    message: String!
  }

  type BlockerCondition {
    status: String!
    reason: String
    message: String
  }

  type BlockerResource {
    id: ID!
    kind: String!
    name: String
  }

  "A resource holding an InUse blocker: deleting or live, with the types and messages of its own blockers."
  type BlockerReferrer {
    id: ID!
    kind: String!
    name: String
    deleting: Boolean
    blockers: [ReferrerBlocker!]
  }

  type ReferrerBlocker {
    type: String!
    message: String!
  }

  type WaitEdge {
    from: ID!
    to: ID!
    kind: String!
  }

  "AdapterNotFinalized: a Kubernetes object the adapter's deletion waits on (delete requested, still present); since is its deletionTimestamp."
  type HoldingObject {
    kind: String!
    namespace: String
    name: String!
    finalizers: [String!]!
    since: String!
  }

  "LeftoverObjects: an object a hosted adapter created or adopted for the resource, still carrying its ownership marker."
  type LeftoverObject {
    adapter: String!
    apiVersion: String!
    kind: String!
    namespace: String
    name: String!
    terminating: Boolean
  }

  "CleanupUnverified: a hosted adapter whose objects could not be listed, and why."
  type UnverifiedAdapter {
    adapter: String!
    reason: String!
  }

  "One reason a deletion is pending; type is one of BLOCKER_TYPES (libs/domain finalizing-blockers.ts), the other fields depend on it."
  type FinalizingBlocker {
    type: String!
    message: String!
    "AdapterNotFinalized"
    adapter: String
    reported: Boolean
    observed_generation: Int
    generation: Int
    finalized: BlockerCondition
    health: BlockerCondition
    last_report_time: String
    held_by_pause: Boolean
    "AdapterNotFinalized: the objects the adapter's last report says it waits on (finalizers), first one named in message"
    holding: [HoldingObject!]
    "AdapterNotFinalized: true while no process consumes the adapter's job queue (adapter-run.<adapter>; no decom worker for it)"
    no_worker: Boolean
    "Paused (source: self, parent or dependent)"
    source: String
    resource: BlockerResource
    paused_by: String
    paused_time: String
    "Paused, DeletionBlocked, JobQueueUnavailable"
    reason: String
    "TimedOut, JobQueueUnavailable"
    since: String
    timeout_seconds: Int
    "DependentsRemaining"
    count: Int
    ids: [String!]
    "DependentsRemaining: Foreground, the dependents hold the adapters too, not only the record"
    holds_adapters: Boolean
    "InUse: each referrer, whether it is deleting, and (one level) its own blockers"
    referrers: [BlockerReferrer!]
    "DependencyCycle: the members in order, the first repeated last"
    members: [BlockerResource!]
    "DependencyCycle: from's hard delete waits for to's (InUse: to references from; RecordWait: to is from's child record)"
    edges: [WaitEdge!]
    "LeftoverObjects (verify before hard delete): the objects still marked as the hosted adapters' own"
    objects: [LeftoverObject!]
    "CleanupUnverified (verify before hard delete): the hosted adapters whose objects could not be listed"
    adapters: [UnverifiedAdapter!]
    "LeftoverObjects, CleanupUnverified: when the verification ran"
    checked_time: String
    "DeadLettered"
    queue: String
    job_id: String
    attempts: Int
    error: String
    failed_time: String
  }

  type FinalizingResource {
    id: ID!
    kind: String!
    name: String!
    href: String!
    generation: Int!
    deleted_time: String!
    deleted_by: String!
    finalizing_seconds: Int!
    waiting_on_adapters: [String!]!
    unhealthy_adapters: [UnhealthyAdapter!]!
    children_remaining: Int!
    reconciled_reason: String!
    reconciled_message: String!
    blockers: [FinalizingBlocker!]!
    deletion_timeout_seconds: Int
    "DeletionBlocked while True (DependentsExist, InUse, DependencyCycle)."
    deletion_blocked: DeletionBlocked
  }

  type DeletionBlocked {
    reason: String!
    message: String!
  }

  type HistoryEntry {
    position: Int!
    revision: Int!
    type: String!
    recorded_time: String!
    caller: String
    data: JSONObject!
  }

  "A force delete or force orphan (seed 001 audit record); adapter_statuses maps resource id to its adapter statuses then."
  type AuditEntry {
    position: Int!
    type: String!
    id: ID!
    kind: String!
    name: String
    caller: String!
    reason: String!
    time: String!
    subresources: [BlockerResource!]!
    adapter_statuses: JSONObject!
  }

  "Whether the job queue's dead letters could be read (status: available | unavailable)."
  type DeadLetterAvailability {
    status: String!
    reason: String
    since: String
  }

  "A break-glass request of the two-person rule (docs/policies.md): status Pending, Approved, Rejected, Voided or Expired; decision once decided; objects for delete_leaks."
  type BreakGlassRequest {
    request_id: ID!
    action: String!
    target: BlockerResource!
    generation: Int!
    reason: String!
    requested_by: String!
    requested_time: String!
    expires_at: String!
    status: String!
    "abandon_adapter: the adapter whose cleanup the approval counts as done."
    adapter: String
    decision: JSONObject
    objects: [JSONObject!]
    href: String!
  }

  type Query {
    "A stored resource of any kind, or null."
    resource(id: ID!): Resource
    "Resources of a kind (PascalCase, e.g. Cluster), newest first; deleting filters on deleted_time."
    resources(kind: String!, page: Int = 1, size: Int = 20, deleting: Boolean): ResourcePage!
    adapterStatuses(id: ID!): [AdapterStatus!]!
    "The stuck-deletion dashboard: resources in Finalizing for at least olderThanSeconds, oldest first; blocker keeps those with a blocker of one of these types; one page (page >= 1, size 1..1000)."
    finalizing(olderThanSeconds: Int = 0, kind: String, blocker: [String!], search: String, page: Int = 1, size: Int = 100): [FinalizingResource!]!
    "Whether finalizing's DeadLettered blockers are known: status available, or unavailable (with reason and since, RFC 3339) while the job queue cannot be read; REST /finalizing's dead_letters."
    finalizingDeadLetters: DeadLetterAvailability!
    "The recorded events about a resource, oldest first, also after it was hard or force deleted; one page (page >= 1, size 1..1000), as REST /resources/{id}/events."
    history(id: ID!, page: Int = 1, size: Int = 100): [HistoryEntry!]!
    "Force deletes and force orphans fleet-wide, newest first (type: ForceDeleted, ForceOrphaned; limit 1..1000)."
    audit(type: [String!], limit: Int = 100): [AuditEntry!]!
    "Break-glass requests, newest first (status: Pending, Approved, Rejected, Voided, Expired; limit 1..1000)."
    breakGlassRequests(status: String, limit: Int = 100): [BreakGlassRequest!]!
  }

  """
  Every result is nullable: mutations in one document run one after another and each is recorded on its own, so a
  refused one answers null with its error in errors[] (path: its field) and the others keep the results they recorded.
  """
  type Mutation {
    "dryRun: decide and record nothing; the answer carries deletion_preview (same authorization, same errors as the DELETE). budgetOverride: an administrator's reason for going past the deletion budget (recorded on DeletionRequested)."
    deleteResource(id: ID!, deleteForMove: Boolean = false, propagationPolicy: String, dryRun: Boolean = false, budgetOverride: String): Resource
    forceDelete(id: ID!, reason: String!): Boolean
    forceOrphan(id: ID!, reason: String!): Resource
    pause(id: ID!, reason: String!): Resource
    unpause(id: ID!, reason: String!): Resource
    "Sets (enabled: true) or clears deletion protection; clearing needs a reason and the admin role (or operator, when configured)."
    setDeletionProtection(id: ID!, enabled: Boolean!, reason: String): Resource
    "Abandons one adapter of a Finalizing resource's frozen set (admin): recorded as AdapterFinalized forced with caller and reason."
    abandonAdapter(id: ID!, adapter: String!, reason: String!): Resource
    "Approves a pending break-glass request (an administrator other than the requester) and runs its action."
    approveBreakGlass(requestId: ID!, reason: String): BreakGlassRequest
    "Rejects a pending break-glass request (reason required); nothing runs."
    rejectBreakGlass(requestId: ID!, reason: String!): BreakGlassRequest
  }
`;

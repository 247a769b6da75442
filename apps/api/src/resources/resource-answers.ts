/**
 * What the resource write routes answer: the resource as the command left it, presented by the read model's
 * one presenter (`presentResourceParts`, libs/projections), and a DELETE's dry run.
 */
import { Inject, Injectable } from '@nestjs/common';
import { KIND_REGISTRY, RESOURCE_QUERIES, type DecisionOutcome } from '@decom/application';
import {
  ResourceNotFound,
  computeResourceConditions,
  type DeletionPreview,
  type KindRegistry,
  type PropagationPolicy,
  type ResourceState,
} from '@decom/domain';
import { presentResourceParts, resourceHref, type ResourceAnswerParts, type ResourceJson, type ResourceQueries } from '@decom/projections';
import { BreakGlassAccepted } from '../break-glass/break-glass-accepted.js';
import type { RecordedOutcome } from '../commands/recorded-commands.js';
import { presentPreview, type DeletionPreviewJson } from './deletion-preview-answer.js';

@Injectable()
export class ResourceAnswers {
  constructor(
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
  ) {}

  /**
   * The answer of a command: fields from the decided state (so `generation`/`deleted_time` are the ones just
   * recorded), conditions and what only the read model derives from the projection that has applied the events;
   * when the read side could not be read after the command was recorded, from the decided state alone, with
   * conditions computed by the domain.
   * @throws ResourceNotFound when `id` is neither in the decided state nor in the state before the command.
   */
  async present(outcome: RecordedOutcome, id: string): Promise<ResourceJson> {
    const state = outcome.state.resources.get(id) ?? outcome.before.resources.get(id);
    if (!state) throw new ResourceNotFound('Resource', id);
    const read = (resourceId: string) =>
      outcome.readSideCurrent ? this.queries.get(resourceId).catch(() => undefined) : Promise.resolve(undefined);
    const view = await read(id);
    const owner = state.owner_references;
    const ownerHref = owner ? ((await read(owner.id))?.href ?? hrefFromState(outcome, this.kinds, owner.id)) : undefined;
    return presentResourceParts(decidedParts(state, this.kinds, view, ownerHref));
  }

  /**
   * Under the two-person rule (`authorization.break_glass`): the recorded request (202), or, when the action
   * would change nothing and nothing was recorded, the resource as it is (as a repeat answers).
   */
  async presentRequested(result: BreakGlassAccepted | DecisionOutcome, id: string): Promise<ResourceJson | BreakGlassAccepted> {
    return result instanceof BreakGlassAccepted ? result : this.present({ ...result, readSideCurrent: true }, id);
  }

  /** A DELETE's dry run (not refused): the preview, its target named as the read model shows it. */
  async presentPreview(
    preview: DeletionPreview,
    id: string,
    deleteForMove: boolean,
    propagationPolicy: PropagationPolicy | undefined,
  ): Promise<DeletionPreviewJson> {
    return presentPreview(preview, await this.queries.get(id), deleteForMove, propagationPolicy);
  }
}

/**
 * A resource answer's parts from its decided `state`; href, conditions, the effective policy, references and
 * the deletion's propagation, frozen adapters and dispatch from `view` when the read model was read after the command
 * (so a write answers what a GET right after it answers).
 */
function decidedParts(
  state: ResourceState,
  kinds: KindRegistry,
  view: ResourceJson | undefined,
  ownerHref: string | undefined,
): ResourceAnswerParts {
  return {
    id: state.id,
    kind: state.kind,
    href: view?.href ?? resourceHref(kinds, state.kind, state.id, ownerHref),
    name: state.name,
    spec: { ...state.spec },
    labels: { ...state.labels },
    generation: state.generation,
    conditions: view?.status.conditions ?? decidedConditions(state, kinds),
    ...(state.owner_references && ownerHref ? { owner_references: { ...state.owner_references, href: ownerHref } } : {}),
    created_time: state.created_time,
    updated_time: state.updated_time,
    created_by: state.created_by,
    updated_by: state.updated_by,
    deleted_time: state.deleted_time,
    deleted_by: state.deleted_by,
    deletion_policy: view?.deletion_policy ?? state.deletion_policy ?? 'Delete',
    references: view?.references,
    effective_deletion_policy: view?.effective_deletion_policy ?? {
      policy: state.deletion_policy ?? 'Delete',
      source: state.deletion_policy ? 'own' : 'default',
    },
    deletion_propagation: view?.deletion_propagation,
    deletion_required_adapters: view?.deletion_required_adapters,
    deletion_dispatch: view?.deletion_dispatch,
    deletion_protection_set: state.deletion_protection ? { ...state.deletion_protection } : undefined,
  };
}

/** Conditions from the decided state, for when the read model could not be read after the command. */
function decidedConditions(state: ResourceState, kinds: KindRegistry): ResourceJson['status']['conditions'] {
  return computeResourceConditions({
    generation: state.generation,
    ...(state.deleted_time ? { deleted_time: state.deleted_time } : {}),
    required_adapters: kinds.find(state.kind)?.required_adapters ?? [],
    adapter_statuses: state.adapter_statuses,
    child_record_count: 0,
    created_time: state.created_time,
    updated_time: state.updated_time,
    previous: [],
  });
}

/** The href of `id` from the decided state (its owners' chain), when the read model cannot be asked. */
function hrefFromState(outcome: DecisionOutcome, kinds: KindRegistry, id: string): string | undefined {
  const state = outcome.state.resources.get(id) ?? outcome.before.resources.get(id);
  if (!state) return undefined;
  const ownerHref = state.owner_references ? hrefFromState(outcome, kinds, state.owner_references.id) : undefined;
  if (state.owner_references && !ownerHref) return undefined;
  return resourceHref(kinds, state.kind, state.id, ownerHref);
}

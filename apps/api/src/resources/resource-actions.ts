/**
 * What the resource routes do, shared by top-level, nested and kind-agnostic routes: build the command,
 * execute it through the CommandBus, wait until the read side shows it (read-your-writes), answer.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ResourceNotFound,
  ValidationFailed,
  computeResourceConditions,
  type KindRegistry,
  type FieldViolation,
  type ResourceState,
} from '@decom/domain';
import {
  CreateResourceCommand,
  ForceDeleteCommand,
  KIND_REGISTRY,
  PatchResourceCommand,
  RESOURCE_QUERIES,
  ReportAdapterStatusCommand,
  RequestDeletionCommand,
  type CommandContext,
  type DecisionOutcome,
} from '@decom/application';
import { resourceHref, type ResourceJson, type ResourceQueries } from '@decom/projections';
import type { AdapterStatus } from '@decom/domain';
import { Problems } from '../problem-details/problem.js';
import { API_OPTIONS, CLOCK, ID_GENERATOR, READ_SIDE, type ApiOptions, type Clock, type IdGenerator, type ReadSide } from '../tokens.js';
import type { AdapterStatusDto } from './dto/adapter-status.dto.js';
import type { CreateResourceDto } from './dto/create-resource.dto.js';
import type { PatchResourceDto } from './dto/patch-resource.dto.js';
import type { ResourceTarget } from './resource-target.js';

export type StatusReportOutcome = { readonly stored: true; readonly status: AdapterStatus } | { readonly stored: false };

@Injectable()
export class ResourceActions {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
    @Inject(READ_SIDE) private readonly readSide: ReadSide,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(API_OPTIONS) private readonly options: ApiOptions,
  ) {}

  async create(kind: string, body: CreateResourceDto, owner: { id: string; kind: string } | undefined, context: CommandContext): Promise<ResourceJson> {
    const descriptor = this.kinds.get(kind);
    if (body.kind !== kind) {
      throw new ValidationFailed(`kind must be '${kind}' on this route, got '${body.kind}'`, [
        { field: 'kind', value: body.kind, constraint: 'enum', message: `kind must be '${kind}'` },
      ]);
    }
    const min = descriptor.name_min_len ?? 1;
    const max = descriptor.name_max_len ?? 253;
    if (body.name.length < min || body.name.length > max) {
      throw new ValidationFailed(`name must be ${min}..${max} characters`, [
        { field: 'name', value: body.name, constraint: body.name.length < min ? 'min_length' : 'max_length', message: `name must be ${min}..${max} characters` },
      ]);
    }
    const labels = validLabels(body.labels ?? {});
    const id = this.ids.next();
    const outcome = await this.execute(
      new CreateResourceCommand(
        { type: 'CreateResource', id, kind, name: body.name, spec: body.spec, labels, ...(owner ? { owner } : {}), metadata: this.metadata(context) },
        context,
      ),
    );
    return this.present(outcome, id);
  }

  async patch(target: ResourceTarget, body: PatchResourceDto, context: CommandContext): Promise<ResourceJson> {
    const labels = body.labels === undefined ? undefined : validLabels(body.labels);
    const outcome = await this.execute(
      new PatchResourceCommand(
        { type: 'PatchResource', id: target.id, kind: target.kind, ...(body.spec ? { spec: body.spec } : {}), ...(labels ? { labels } : {}), metadata: this.metadata(context) },
        context,
      ),
    );
    return this.present(outcome, target.id);
  }

  async delete(target: ResourceTarget, context: CommandContext): Promise<ResourceJson> {
    const outcome = await this.execute(
      new RequestDeletionCommand({ type: 'RequestDeletion', id: target.id, kind: target.kind, metadata: this.metadata(context) }, context),
    );
    return this.present(outcome, target.id);
  }

  /** @throws HttpProblem 403 when admins are configured and the caller is not one (Decom §7 P12). */
  async forceDelete(target: ResourceTarget, reason: string | undefined, context: CommandContext): Promise<void> {
    if (this.options.admins.length > 0 && !this.options.admins.includes(context.caller)) {
      throw Problems.forbidden(`force delete is restricted to administrators; '${context.caller}' is not one`);
    }
    await this.execute(
      new ForceDeleteCommand({ type: 'ForceDelete', id: target.id, kind: target.kind, reason: reason ?? '', metadata: this.metadata(context) }, context),
    );
  }

  async reportStatus(target: ResourceTarget, body: AdapterStatusDto, context: CommandContext): Promise<StatusReportOutcome> {
    const outcome = await this.execute(
      new ReportAdapterStatusCommand(
        {
          type: 'ReportAdapterStatus',
          id: target.id,
          kind: target.kind,
          adapter: body.adapter,
          observed_generation: body.observed_generation,
          observed_time: body.observed_time,
          conditions: body.conditions.map((c) => ({ type: c.type, status: c.status, ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.message !== undefined ? { message: c.message } : {}) })),
          ...(body.metadata ? { report_metadata: body.metadata } : {}),
          ...(body.data ? { data: body.data } : {}),
          metadata: this.metadata(context),
        },
        context,
      ),
    );
    const reported = outcome.events.find((e) => e.type === 'AdapterStatusReported');
    return reported && reported.type === 'AdapterStatusReported' ? { stored: true, status: reported.data.status } : { stored: false };
  }

  private metadata(context: CommandContext) {
    return { now: this.clock.now().toISOString(), caller: context.caller };
  }

  private async execute(command: object): Promise<DecisionOutcome> {
    const outcome = await this.commandBus.execute<object, DecisionOutcome>(command as never);
    if (outcome.position !== undefined) await this.readSide.waitFor(outcome.position);
    return outcome;
  }

  /**
   * The answer of a command: fields from the decided state (so `generation`/`deleted_time` are the
   * ones just recorded), conditions from the projection that has applied the events.
   */
  private async present(outcome: DecisionOutcome, id: string): Promise<ResourceJson> {
    const view = await this.queries.get(id);
    const state = outcome.state.resources.get(id) ?? outcome.before.resources.get(id);
    if (!state) throw new ResourceNotFound('Resource', id);
    const ownerHref = state.owner_references ? (await this.queries.get(state.owner_references.id))?.href : undefined;
    return presentState(state, this.kinds, view, ownerHref);
  }
}

function validLabels(labels: Record<string, unknown>): Record<string, string> {
  const violations = Object.entries(labels).flatMap(([key, value]): FieldViolation[] => {
    if (key === '' || key.length > 255) return [{ field: `labels.${key}`, constraint: 'max_length', message: 'label keys must be 1..255 characters' }];
    if (typeof value !== 'string' || value.length > 255) return [{ field: `labels.${key}`, constraint: 'format', message: 'label values must be strings of at most 255 characters' }];
    return [];
  });
  if (violations.length > 0) throw new ValidationFailed(violations.map((v) => v.message).join('; '), violations);
  return labels as Record<string, string>;
}

function presentState(state: ResourceState, kinds: KindRegistry, view: ResourceJson | undefined, ownerHref: string | undefined): ResourceJson {
  const href = view?.href ?? resourceHref(kinds, state.kind, state.id, ownerHref);
  const conditions =
    view?.status.conditions ??
    computeResourceConditions({
      generation: state.generation,
      ...(state.deleted_time ? { deleted_time: state.deleted_time } : {}),
      required_adapters: kinds.find(state.kind)?.required_adapters ?? [],
      adapter_statuses: state.adapter_statuses,
      child_record_count: 0,
      created_time: state.created_time,
      updated_time: state.updated_time,
      previous: [],
    });
  return {
    id: state.id,
    kind: state.kind,
    href,
    name: state.name,
    spec: { ...state.spec },
    ...(Object.keys(state.labels).length > 0 ? { labels: { ...state.labels } } : {}),
    generation: state.generation,
    status: { conditions },
    ...(state.owner_references && ownerHref ? { owner_references: { ...state.owner_references, href: ownerHref } } : {}),
    created_time: state.created_time,
    updated_time: state.updated_time,
    created_by: state.created_by,
    updated_by: state.updated_by,
    ...(state.deleted_time ? { deleted_time: state.deleted_time, deleted_by: state.deleted_by ?? '' } : {}),
  };
}

/**
 * Validates a create body against the kind of the route: the global pipe's rules (CreateResourceDto) plus
 * the kind's own name rule (`name_min_len`..`name_max_len` from the entities config), reported together in
 * one 400 so an empty body names every missing field with the real limits (Cluster 3..53, NodePool 3..15).
 * The global pipe cannot do this alone: it does not know which kind a route serves.
 */
import { nameViolations, type FieldViolation, type KindDescriptor } from '@decom/domain';
import { HttpProblem, Problems } from '../../problem-details/problem.js';
import { createLenientValidationPipe } from '../../problem-details/validation-pipe.js';
import { CreateResourceDto } from './create-resource.dto.js';

/**
 * @param descriptor the route's kind; undefined for `POST /resources` with an unknown `kind` (the caller
 *   refuses the kind then; the name cannot be checked against limits of no kind).
 * @returns the body as a `CreateResourceDto` (unknown and read-only fields dropped, as HyperFleet does;
 *   types checked; `name` per the kind).
 * @throws HttpProblem 400 `HYPERFLEET-VAL-000` with every violation.
 */
export async function validCreateBody(raw: unknown, descriptor: KindDescriptor | undefined): Promise<CreateResourceDto> {
  const name = raw !== null && typeof raw === 'object' ? (raw as { name?: unknown }).name : undefined;
  const names = descriptor ? nameViolations(name, descriptor) : [];
  let body: CreateResourceDto | undefined;
  let violations: FieldViolation[] = [];
  try {
    body = (await createLenientValidationPipe(CreateResourceDto).transform(raw ?? {}, {
      type: 'body',
      metatype: CreateResourceDto,
      data: undefined,
    })) as CreateResourceDto;
  } catch (error) {
    if (!(error instanceof HttpProblem) || error.code !== 'HYPERFLEET-VAL-000') throw error;
    violations = [...(error.errors ?? [])];
  }
  if (names.length === 0 && body) return body;
  const afterKind = violations.filter((v) => v.field === 'kind').length;
  const all = [...violations.slice(0, afterKind), ...names, ...violations.slice(afterKind)];
  throw Problems.validation(all.map((v) => v.message).join('; '), all);
}

/**
 * The checks of a resource's own fields that need nothing but the body and the kind's descriptor: the kind a
 * route creates, the name's syntax (resource-name.ts) and the labels' (labels.ts). References need the read
 * model (reference-validation.ts).
 */
import { ValidationFailed, labelViolations, nameViolations, type FieldViolation, type KindDescriptor } from '@decom/domain';

/** @throws ValidationFailed (`kind`, enum) when the body names another kind than the route creates. */
export function requireRouteKind(routeKind: string, bodyKind: string): void {
  if (bodyKind === routeKind) return;
  throw new ValidationFailed(`kind must be '${routeKind}' on this route, got '${bodyKind}'`, [
    { field: 'kind', value: bodyKind, constraint: 'enum', message: `kind must be '${routeKind}'` },
  ]);
}

/** @throws ValidationFailed naming every way `name` breaks the kind's name rule (length, characters). */
export function requireValidName(name: unknown, descriptor: KindDescriptor): void {
  refuseViolations(nameViolations(name, descriptor));
}

/** `labels` as string labels. @throws ValidationFailed naming every label that breaks Kubernetes' label syntax. */
export function validLabels(labels: Record<string, unknown>): Record<string, string> {
  refuseViolations(labelViolations(labels));
  return labels as Record<string, string>;
}

function refuseViolations(violations: readonly FieldViolation[]): void {
  if (violations.length > 0) throw new ValidationFailed(violations.map((v) => v.message).join('; '), violations);
}

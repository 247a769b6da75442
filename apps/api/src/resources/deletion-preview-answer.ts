/**
 * The answer of `DELETE …?dryRun=All` (and GraphQL `deleteResource(dryRun: true)`): the domain's deletion
 * preview in the API's snake_case words, with the flags the caller passed. Nothing was recorded.
 */
import type { DeletionPreview, PreviewedDeletion, PropagationPolicy } from '@decom/domain';
import type { ResourceJson } from '@decom/projections';

export interface DeletionPreviewJson {
  readonly kind: 'DeletionPreview';
  /** Always true: this answer describes a DELETE that was not carried out. */
  readonly dry_run: true;
  readonly target: { readonly id: string; readonly kind: string; readonly name?: string; readonly href?: string };
  /** `WouldDelete` (`resources` would be marked) or `AlreadyDeleting` (a DELETE would record nothing); a refusal is an error answer instead. */
  readonly outcome: 'WouldDelete' | 'AlreadyDeleting';
  /** As the caller passed it (absent: each kind's configured propagation, shown per resource). */
  readonly propagationPolicy?: PropagationPolicy;
  readonly delete_for_move: boolean;
  /**
   * Every resource the DELETE would mark, in hard-delete order (children before their parent), each with the
   * generation it would get, its effective deletion policy and source, its propagation and the required
   * adapters that would be frozen for its deletion.
   */
  readonly resources: readonly PreviewedDeletion[];
}

/**
 * `preview` (outcome `WouldDelete` or `AlreadyDeleting`) as the API answers it; `view` names the target.
 * @throws Error for a `Refused` preview: the caller answers that as the DELETE's error (DryRunRefused).
 */
export function presentPreview(
  preview: DeletionPreview,
  view: ResourceJson | undefined,
  deleteForMove: boolean,
  propagationPolicy: PropagationPolicy | undefined,
): DeletionPreviewJson {
  if (preview.outcome === 'Refused') throw new Error('a refused preview is answered as the DELETE error it met');
  return {
    kind: 'DeletionPreview',
    dry_run: true,
    target: { ...preview.target, ...(view && { name: view.name, href: view.href }) },
    outcome: preview.outcome,
    ...(propagationPolicy && { propagationPolicy }),
    delete_for_move: deleteForMove,
    resources: preview.resources,
  };
}

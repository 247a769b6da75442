/**
 * Field selectors (the `fieldSelector` query parameter) for the fields every kind supports:
 * `metadata.name` and `metadata.namespace`, with `=`, `==` and `!=`, ANDed by commas.
 */
import { SelectorSyntaxError } from './label-selector.js';

export interface FieldRequirement {
  readonly field: 'metadata.name' | 'metadata.namespace';
  readonly equals: boolean;
  readonly value: string;
}

/**
 * Parses a field selector; `''` selects everything.
 * @throws SelectorSyntaxError for bad syntax or a field other than `metadata.name` / `metadata.namespace`
 *   (message as real servers word it: `field label not supported: spec.x`).
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const match = /^\s*([^=!\s]+)\s*(==|=|!=)\s*([^\s]*)\s*$/.exec(part);
    if (!match) throw new SelectorSyntaxError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [, field, op, value] = match;
    if (field !== 'metadata.name' && field !== 'metadata.namespace') {
      throw new SelectorSyntaxError(`field label not supported: ${field}`);
    }
    return { field, equals: op !== '!=', value: value! };
  });
}

/** True when the object's name and namespace (`''` for cluster-scoped) satisfy every requirement. */
export function matchesFields(requirements: readonly FieldRequirement[], name: string, namespace: string): boolean {
  return requirements.every((r) => {
    const actual = r.field === 'metadata.name' ? name : namespace;
    return (actual === r.value) === r.equals;
  });
}

/**
 * Label keys and values follow Kubernetes' label syntax (as HyperFleet's search documentation assumes):
 * key = optional prefix (a DNS subdomain, at most 253 characters) + `/` + name; name and value at most 63
 * characters of `[A-Za-z0-9._-]`, beginning and ending with a letter or digit; a value may be empty.
 * @see https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set
 */
import type { FieldViolation } from './errors.js';

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Longest key or value quoted back in a message (input is never echoed unbounded). */
const QUOTE_MAX = 64;

/** Violations of every label (each key's field is `labels.<key>`, bounded); empty when all are valid. */
export function labelViolations(labels: Readonly<Record<string, unknown>>): FieldViolation[] {
  return Object.entries(labels).flatMap(([key, value]): FieldViolation[] => {
    const field = `labels.${quote(key)}`;
    const keyProblem = labelKeyProblem(key);
    if (keyProblem) return [{ field, constraint: 'pattern', message: `label key ${JSON.stringify(quote(key))} ${keyProblem}` }];
    if (typeof value !== 'string')
      return [{ field, constraint: 'format', message: `label values must be strings, got ${value === null ? 'null' : typeof value}` }];
    if (value.length > 63)
      return [{ field, constraint: 'max_length', message: `label value must be at most 63 characters, got ${value.length}` }];
    if (value !== '' && !NAME.test(value)) {
      return [
        {
          field,
          value: quote(value),
          constraint: 'pattern',
          message: 'label value must be empty or letters, digits, "-", "_" and "." beginning and ending with a letter or digit',
        },
      ];
    }
    return [];
  });
}

/** Why a label key breaks the syntax, or undefined when it is valid. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix === '' || prefix.length > 253 || !prefix.split('.').every((part) => part.length <= 63 && DNS_LABEL.test(part))) {
      return 'has an invalid prefix: it must be a DNS subdomain (lower-case letters, digits, "-" and ".", at most 253 characters) before the "/"';
    }
  }
  if (name === '' || name.length > 63) return 'must have a name of 1..63 characters (after the optional "prefix/")';
  if (!NAME.test(name))
    return 'must be letters, digits, "-", "_" and "." beginning and ending with a letter or digit (after the optional "prefix/")';
  return undefined;
}

function quote(text: string): string {
  return text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
}

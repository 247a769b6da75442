/**
 * Kubernetes label selectors (the `labelSelector` query parameter), parsed and matched like
 * k8s.io/apimachinery/pkg/labels: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`,
 * and the integer comparisons `a>1`, `a<5`; requirements are ANDed by commas.
 * Hand-rolled: no maintained npm package parses this grammar, and it is a few dozen lines.
 */

export type LabelOperator = '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | '>' | '<';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** Thrown for a selector that does not parse; message worded like the apimachinery parser's. */
export class SelectorSyntaxError extends Error {
  override readonly name = 'SelectorSyntaxError';
}

type Token = { type: 'word'; text: string } | { type: 'punct'; text: string };

const PUNCTUATION = ['==', '!=', '=', '!', '(', ')', ',', '>', '<'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
    if (punct) {
      tokens.push({ type: 'punct', text: punct });
      i += punct.length;
      continue;
    }
    let end = i;
    while (end < text.length && !/[\s=!(),<>]/.test(text[end]!)) end++;
    tokens.push({ type: 'word', text: text.slice(i, end) });
    i = end;
  }
  return tokens;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** A valid label key: optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
export function isValidLabelKey(key: string): boolean {
  return LABEL_KEY.test(key) && key.split('/').pop()!.length <= 63;
}

/** A valid label value: empty, or at most 63 alphanumerics, `-`, `_`, `.`, alphanumeric at both ends. */
export function isValidLabelValue(value: string): boolean {
  return LABEL_VALUE.test(value) && value.length <= 63;
}

function checkKey(key: string): string {
  if (!isValidLabelKey(key)) {
    throw new SelectorSyntaxError(`unable to parse requirement: invalid label key "${key}"`);
  }
  return key;
}

function checkValue(value: string): string {
  if (!isValidLabelValue(value)) {
    throw new SelectorSyntaxError(`unable to parse requirement: invalid label value: "${value}"`);
  }
  return value;
}

/**
 * Parses a label selector; `''` selects everything (no requirements).
 * @throws SelectorSyntaxError on any syntax error or invalid key/value.
 */
export function parseLabelSelector(text: string): LabelRequirement[] {
  const tokens = tokenize(text);
  const requirements: LabelRequirement[] = [];
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const expectWord = (what: string): string => {
    const t = tokens[i++];
    if (t?.type !== 'word') throw new SelectorSyntaxError(`found '${t?.text ?? ''}', expected: ${what}`);
    return t.text;
  };
  while (i < tokens.length) {
    if (peek()?.text === '!') {
      i++;
      requirements.push({ key: checkKey(expectWord("identifier after '!'")), operator: '!', values: [] });
    } else {
      const key = checkKey(expectWord('identifier'));
      const op = peek();
      if (op === undefined || op.text === ',') {
        requirements.push({ key, operator: 'exists', values: [] });
      } else if (op.type === 'punct' && ['=', '==', '!='].includes(op.text)) {
        i++;
        const value = peek()?.type === 'word' ? tokens[i++]!.text : '';
        requirements.push({ key, operator: op.text === '!=' ? '!=' : '=', values: [checkValue(value)] });
      } else if (op.type === 'punct' && (op.text === '>' || op.text === '<')) {
        i++;
        const value = expectWord('integer');
        if (!/^-?\d+$/.test(value))
          throw new SelectorSyntaxError(`unable to parse requirement: for 'gt', 'lt' operators, the value must be an integer`);
        requirements.push({ key, operator: op.text, values: [value] });
      } else if (op.type === 'word' && (op.text === 'in' || op.text === 'notin')) {
        i++;
        if (tokens[i++]?.text !== '(') throw new SelectorSyntaxError(`found '${tokens[i - 1]?.text ?? ''}', expected: '('`);
        const values: string[] = [];
        while (peek()?.text !== ')') {
          if (peek() === undefined) throw new SelectorSyntaxError(`found '', expected: ')'`);
          values.push(checkValue(peek()?.type === 'word' ? tokens[i++]!.text : ''));
          if (peek()?.text === ',') i++;
          else if (peek()?.text !== ')') throw new SelectorSyntaxError(`found '${peek()?.text ?? ''}', expected: ',' or ')'`);
        }
        i++;
        if (values.length === 0) throw new SelectorSyntaxError(`for 'in', 'notin' operators, values set can't be empty`);
        requirements.push({ key, operator: op.text, values });
      } else {
        throw new SelectorSyntaxError(`found '${op.text}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    }
    if (i < tokens.length) {
      if (tokens[i]!.text !== ',') throw new SelectorSyntaxError(`found '${tokens[i]!.text}', expected: ','`);
      i++;
      if (i === tokens.length) throw new SelectorSyntaxError(`found '', expected: identifier after ','`);
    }
  }
  return requirements;
}

/** True when `labels` satisfies every requirement (missing labels satisfy only `!=`, `notin` and `!`). */
export function matchesLabels(requirements: readonly LabelRequirement[], labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = (key: string): boolean => labels !== undefined && Object.prototype.hasOwnProperty.call(labels, key);
  return requirements.every((r) => {
    const value = has(r.key) ? labels![r.key] : undefined;
    switch (r.operator) {
      case '=':
      case 'in':
        return value !== undefined && r.values.includes(value);
      case '!=':
      case 'notin':
        return value === undefined || !r.values.includes(value);
      case 'exists':
        return value !== undefined;
      case '!':
        return value === undefined;
      case '>':
      case '<': {
        if (value === undefined || !/^-?\d+$/.test(value)) return false;
        const [a, b] = [Number(value), Number(r.values[0])];
        return r.operator === '>' ? a > b : a < b;
      }
    }
  });
}

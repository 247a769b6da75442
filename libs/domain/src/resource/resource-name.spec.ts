import type { KindDescriptor } from './kinds.js';
import { nameViolations } from './resource-name.js';

const CLUSTER: KindDescriptor = { kind: 'Cluster', plural: 'clusters', required_adapters: [], name_min_len: 3, name_max_len: 53 };
const PLAIN: KindDescriptor = { kind: 'Thing', plural: 'things', required_adapters: [] };

describe("a resource name follows its kind's own limits", () => {
  it('accepts names within the limits', () => {
    expect(nameViolations('abc', CLUSTER)).toEqual([]);
    expect(nameViolations('a'.repeat(53), CLUSTER)).toEqual([]);
    expect(nameViolations('a', PLAIN)).toEqual([]);
  });

  it.each([
    [undefined, 'required', 'got none'],
    [7, 'format', 'got a number'],
    ['ab', 'min_length', 'got 2 characters'],
    ['a'.repeat(54), 'max_length', 'got 54 characters'],
    ['Prod_1', 'pattern', 'got other characters'],
    ['-abc', 'pattern', 'got other characters'],
  ])('refuses %j (%s), stating the rule with the kind limits', (name, constraint, got) => {
    const [violation] = nameViolations(name, CLUSTER);
    expect(violation).toMatchObject({ field: 'name', constraint });
    expect(violation!.message).toBe(
      `Cluster name must be 3..53 characters of a-z, 0-9 and "-" (starting and ending with a letter or digit), ${got}`,
    );
  });

  it("uses HyperFleet's defaults 1..253 when the kind declares none", () => {
    expect(nameViolations('a'.repeat(254), PLAIN)[0]!.message).toContain('Thing name must be 1..253 characters');
  });
});

/**
 * A validation rule that weighs a document by the size of the lists it can answer, before any resolver
 * runs: graphql-armor's cost limit counts each selected field once, so 15 aliases of `history(id)` cost as
 * much as one although each may answer a thousand events. Here a field that returns a list multiplies the
 * cost of its selection by the list's bound: its size argument (`size`, `limit`; a variable counts as the
 * argument's maximum, since validation runs before variables are known) or, for nested lists without one
 * (`conditions`, `blockers`, ...), `NESTED_LIST_BOUND`. Scalars cost 1, JSON objects (`spec`, `data`)
 * `JSON_COST`, objects 1 plus their selection. Over `maxCost` → a GraphQL validation error, answered
 * 400 `HYPERFLEET-VAL-000` like the other document limits. Introspection fields are not counted.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  isScalarType,
  type ASTVisitor,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/** The size argument bounding a list field: its default and largest accepted value (the resolver refuses more). */
export interface ListBound {
  readonly arg: string;
  readonly default: number;
  readonly max: number;
}

/** List fields with a size argument, by `Type.field`; the REST maxima. `resources` answers a page of `size`. */
export const LIST_BOUNDS: Readonly<Record<string, ListBound>> = {
  'Query.resources': { arg: 'size', default: 20, max: 100 },
  'Query.history': { arg: 'size', default: 100, max: 1_000 },
  'Query.audit': { arg: 'limit', default: 100, max: 1_000 },
  'Query.finalizing': { arg: 'size', default: 100, max: 1_000 },
};
/** Lists whose length the parent's size argument already counts (a page's items). */
const COUNTED_BY_PARENT: ReadonlySet<string> = new Set(['ResourcePage.items']);
/** Assumed length of a list field without a size argument (a resource's conditions, a deletion's blockers). */
export const NESTED_LIST_BOUND = 10;
/** A JSON object field (`spec`, `labels`, `data`): up to the body limit, weighed as ten scalars. */
export const JSON_COST = 10;

export function listCostRule(maxCost: number): (context: ValidationContext) => ASTVisitor {
  return (context) => ({
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const root =
        operation.operation === 'query'
          ? schema.getQueryType()
          : operation.operation === 'mutation'
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) return;
      const cost = selectionCost(context, operation.selectionSet, root, new Set());
      if (cost > maxCost) {
        context.reportError(
          new GraphQLError(
            `Query cost limit of ${maxCost} exceeded: this document may answer ${cost} values (list fields count their size argument, at most ${LIST_BOUNDS['Query.history']!.max} per list)`,
            { nodes: [operation] },
          ),
        );
      }
    },
  });
}

function selectionCost(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType,
  fragments: Set<string>,
): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) total += fieldCost(context, selection, parent, fragments);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? (context.getSchema().getType(selection.typeCondition.name.value) ?? parent) : parent;
      total += selectionCost(context, selection.selectionSet, type, fragments);
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      // A cycle is refused by graphql-js's own NoFragmentCyclesRule; here it only must not recurse forever.
      if (!fragment || fragments.has(name)) continue;
      const type = context.getSchema().getType(fragment.typeCondition.name.value) ?? parent;
      total += selectionCost(context, fragment.selectionSet, type, new Set([...fragments, name]));
    }
    // Saturate instead of overflowing into Infinity on absurd documents; the token limit bounds them anyway.
    if (total > Number.MAX_SAFE_INTEGER / 1_000) return total;
  }
  return total;
}

function fieldCost(context: ValidationContext, node: FieldNode, parent: GraphQLNamedType, fragments: Set<string>): number {
  const name = node.name.value;
  if (name.startsWith('__')) return name === '__typename' ? 1 : 0;
  const field =
    isObjectType(parent) || isInterfaceType(parent) ? (parent.getFields()[name] as GraphQLField<unknown, unknown> | undefined) : undefined;
  // Unknown fields are refused by FieldsOnCorrectTypeRule; they add nothing here.
  if (!field) return 0;
  const named = getNamedType(field.type);
  const own = isScalarType(named)
    ? named.name === 'JSONObject'
      ? JSON_COST
      : 1
    : 1 + (node.selectionSet ? selectionCost(context, node.selectionSet, named, fragments) : 0);
  return own * multiplier(node, parent.name, field);
}

function multiplier(node: FieldNode, parentName: string, field: GraphQLField<unknown, unknown>): number {
  const bound = LIST_BOUNDS[`${parentName}.${field.name}`];
  if (bound) {
    const arg = node.arguments?.find((a) => a.name.value === bound.arg);
    if (!arg) return bound.default;
    if (arg.value.kind === Kind.INT) return Math.min(Math.max(Number.parseInt(arg.value.value, 10), 1), bound.max);
    return bound.max;
  }
  if (COUNTED_BY_PARENT.has(`${parentName}.${field.name}`)) return 1;
  return isListType(getNullableType(field.type)) ? NESTED_LIST_BOUND : 1;
}

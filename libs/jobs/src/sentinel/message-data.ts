/**
 * Sentinel's `message_data` (hyperfleet-sentinel `docs/config.md`): a map of CEL expressions (nested maps allowed)
 * evaluated per resource into the CloudEvent `data` the adapters receive, e.g. `{ id: resource.id, kind: resource.kind,
 * href: resource.href, generation: resource.generation }`. Variables: `resource` (the API's JSON) and
 * `now` (timestamp). A field whose expression fails or yields null is omitted, as Sentinel does.
 */
import { CelCompileError, compileCel, type CompiledCel } from '@decom/cel';

export type MessageDataTree = { readonly [key: string]: string | MessageDataTree };

type CompiledTree = ReadonlyMap<string, CompiledCel | CompiledTree>;

/** A `message_data` value or key that does not compile; `where` is its dotted key path. */
export class MessageDataError extends Error {
  override readonly name = 'MessageDataError';
  constructor(
    readonly where: string,
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`message_data.${where}: ${reason}`);
  }
}

export interface CompiledMessageData {
  /** The event data for `resource`; failed or null fields are left out. */
  shape(resource: Readonly<Record<string, unknown>>, now: Date): Record<string, unknown>;
}

/**
 * Compiles every expression once (at start-up).
 * @throws MessageDataError for an expression that does not compile or a value that is neither a string nor a map.
 */
export function compileMessageData(tree: Readonly<Record<string, unknown>>): CompiledMessageData {
  const compiled = compileTree(tree, '');
  return { shape: (resource, now) => evaluateTree(compiled, { resource, now }) };
}

function compileTree(tree: Readonly<Record<string, unknown>>, prefix: string): CompiledTree {
  const out = new Map<string, CompiledCel | CompiledTree>();
  for (const [key, value] of Object.entries(tree)) {
    const where = `${prefix}${key}`;
    if (typeof value === 'string') {
      try {
        out.set(key, compileCel(value));
      } catch (error) {
        if (error instanceof CelCompileError) throw new MessageDataError(where, error.reason, error.line, error.column);
        throw error;
      }
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.set(key, compileTree(value as Record<string, unknown>, `${where}.`));
    } else {
      throw new MessageDataError(where, 'must be a CEL expression (string) or a map of them');
    }
  }
  return out;
}

function evaluateTree(tree: CompiledTree, vars: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, node] of tree) {
    if (node instanceof Map) {
      out[key] = evaluateTree(node, vars);
      continue;
    }
    try {
      const value = (node as CompiledCel).evaluate(vars);
      if (value !== null && value !== undefined) out[key] = value;
    } catch {
      // Sentinel omits a field it cannot evaluate.
    }
  }
  return out;
}

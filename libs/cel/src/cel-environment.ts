import { Environment } from '@marcbachmann/cel-js';
import { registerConditionFunctions } from './condition-functions.js';
import { registerHyperfleetFunctions } from './hyperfleet-functions.js';
import { registerListsExtension } from './lists-extension.js';
import { registerStringsExtension } from './strings-extension.js';

/**
 * Builds HyperFleet's CEL environment on cel-js (HyperFleet: hyperfleet-adapter docs/conventions/cel.md):
 * every variable is
 * `dyn` (undeclared names are allowed and resolved from the activation), optional types on,
 * mixed-type list/map literals allowed (cel-go parses `[1, "a"]` without complaint), plus the
 * strings and lists extensions and HyperFleet's functions. `now()` and Decom's lenient `has()`
 * are attached per expression by ast-hooks.ts.
 *
 * The returned environment is locked: cloning it once makes cel-js refuse further registrations,
 * so sharing it between expressions shares no mutable state.
 */
export function createCelEnvironment(): Environment {
  const env = new Environment({
    unlistedVariablesAreDyn: true,
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: false,
  });
  registerStringsExtension(env);
  registerListsExtension(env);
  registerHyperfleetFunctions(env);
  registerConditionFunctions(env);
  env.clone();
  return env;
}

/**
 * Names an activation must not use: cel-js resolves them to its own constants (type names such as
 * `int`, `list`, `map`, `string`, and the `optional`, `cel`, `google`, `strings`, `lists`
 * namespaces), so a variable of that name would be silently ignored.
 */
export function reservedNames(env: Environment): ReadonlySet<string> {
  return new Set(env.getDefinitions().variables.map((v) => v.name));
}

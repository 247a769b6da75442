/**
 * HyperFleet-compatible CEL for adapter task configs: compile at config load, evaluate per event.
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md; seeds/000 "Example Task Config with Deletion".
 */
export { compileCel, evaluateCel } from './compile-cel.js';
export type { CelOptions, CompiledCel } from './compile-cel.js';
export { CelCompileError, CelEvalError } from './cel-errors.js';
export { unknownVariables, selectedFields, isReservedWord, type CelReference } from './cel-references.js';

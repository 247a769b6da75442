/**
 * Executes a parsed template like Go's `text/template` (exec.go) with `missingkey=error`: the same
 * evaluation order, argument checks, variable scoping, truthiness and error messages. Values are
 * described in values.ts: `undefined` is Go's "no value" (invalid reflect.Value), `null` a nil held
 * in an interface.
 */
import { TemplateExecError, lineColumn } from './errors.js';
import { type CallEnv, FUNCS, FuncError, type GoFunc, PARAM_TYPE_NAMES, type ParamType, isBuiltin, truth } from './funcs.js';
import { formatValue } from './go-print.js';
import { TIME_METHODS } from './time-methods.js';
import {
  type ArgNode,
  type ChainNode,
  type CommandNode,
  type FieldNode,
  type IdentifierNode,
  type ListNode,
  type Node,
  type NumberNode,
  type PipeNode,
  type RangeNode,
  type VariableNode,
  nodeString,
} from './nodes.js';
import { type GoMap, GoNumber, type GoTime, goTypeName, isGoMap, isTrue, kindOf, sortedKeys, timeValue } from './values.js';

/** The value `.` stands for; `boxed` when it came out of a map or list (Go static type interface{}). */
interface Dot {
  readonly v: unknown;
  readonly boxed: boolean;
}
interface Variable {
  readonly name: string;
  v: unknown;
  boxed: boolean;
}
interface Evaluated {
  readonly v: unknown;
  readonly boxed: boolean;
}

type AnyNode = Node | ArgNode | CommandNode | ListNode;

/** The "no final argument" marker of a pipeline's first command. */
const MISSING: unique symbol = Symbol('missing');
type Final = unknown | typeof MISSING;

const BREAK: unique symbol = Symbol('break');
const CONTINUE: unique symbol = Symbol('continue');

export class Executor {
  private readonly vars: Variable[];
  private node: AnyNode | null = null;
  private out = '';

  constructor(
    private readonly source: string,
    private readonly data: unknown,
    private readonly env: CallEnv,
  ) {
    this.vars = [{ name: '$', v: data, boxed: false }];
  }

  run(root: ListNode): string {
    try {
      this.walk({ v: this.data, boxed: false }, root);
    } catch (e) {
      if (e === BREAK || e === CONTINUE) throw new Error('break/continue escaped {{range}}');
      throw e;
    }
    return this.out;
  }

  private at(node: AnyNode): void {
    this.node = node;
  }

  private errorf(reason: string): never {
    const node = this.node;
    const { line, column } = node ? lineColumn(this.source, node.pos) : { line: 1, column: 1 };
    throw new TemplateExecError(reason, line, column, node ? nodeString(node) : '');
  }

  // --- variables ---

  private push(name: string, v: unknown, boxed = false): void {
    this.vars.push({ name, v, boxed });
  }
  private setVar(name: string, v: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const variable = this.vars[i] as Variable;
      if (variable.name === name) {
        variable.v = v;
        variable.boxed = false;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }
  private setTopVar(n: number, v: unknown, boxed: boolean): void {
    const variable = this.vars[this.vars.length - n] as Variable;
    variable.v = v;
    variable.boxed = boxed;
  }
  private varValue(name: string): Variable {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const variable = this.vars[i] as Variable;
      if (variable.name === name) return variable;
    }
    return this.errorf(`undefined variable: ${name}`);
  }

  // --- walking ---

  private walk(dot: Dot, node: Node | ListNode): void {
    this.at(node);
    switch (node.kind) {
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'text':
        this.out += node.text;
        return;
      case 'comment':
        return;
      case 'action': {
        // Variables declared here persist until the enclosing {{end}}; a declaration prints nothing.
        const v = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, v);
        return;
      }
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'if':
      case 'with':
        return this.walkIfOrWith(node.kind, dot, node.pipe, node.list, node.elseList);
      case 'range':
        return this.walkRange(dot, node);
    }
  }

  private walkIfOrWith(kind: 'if' | 'with', dot: Dot, pipe: PipeNode, list: ListNode, elseList: ListNode | null): void {
    const mark = this.vars.length;
    try {
      const v = this.evalPipeline(dot, pipe);
      if (isTrue(unboxNil(v))) this.walk(kind === 'with' ? { v, boxed: false } : dot, list);
      else if (elseList) this.walk(dot, elseList);
    } finally {
      this.vars.length = mark;
    }
  }

  private walkRange(dot: Dot, r: RangeNode): void {
    this.at(r);
    const outerMark = this.vars.length;
    try {
      const val = this.evalPipeline(dot, r.pipe);
      const mark = this.vars.length;
      const oneIteration = (index: unknown, elem: unknown): void => {
        if (r.pipe.decl.length > 0) this.setTopVar(1, elem, true);
        if (r.pipe.decl.length > 1) this.setTopVar(2, index, false);
        try {
          this.walk({ v: elem, boxed: true }, r.list);
        } catch (e) {
          if (e !== CONTINUE) throw e;
        } finally {
          this.vars.length = mark;
        }
      };
      switch (kindOf(val)) {
        case 'slice': {
          const list = val as unknown[];
          if (list.length === 0) break;
          list.forEach((elem, i) => oneIteration(i, elem === undefined ? null : elem));
          return;
        }
        case 'map': {
          const keys = sortedKeys(val as GoMap);
          if (keys.length === 0) break;
          for (const k of keys) oneIteration(k, (val as GoMap)[k]);
          return;
        }
        case 'invalid':
          break; // like a nil map: not an error
        default:
          this.errorf(`range can't iterate over ${formatValue(val)}`);
      }
      if (r.elseList) this.walk(dot, r.elseList);
    } catch (e) {
      if (e !== BREAK) throw e;
    } finally {
      this.vars.length = outerMark;
    }
  }

  private printValue(node: AnyNode, v: unknown): void {
    this.at(node);
    this.out += v === undefined || v === null ? '<no value>' : formatValue(v);
  }

  // --- evaluation ---

  private evalPipeline(dot: Dot, pipe: PipeNode): unknown {
    this.at(pipe);
    let v: Final = MISSING;
    for (const cmd of pipe.cmds) {
      v = this.evalCommand(dot, cmd, v);
      // A nil held in an interface{} is "no value" once the command is done.
      if (v === null) v = undefined;
    }
    for (const variable of pipe.decl) {
      if (pipe.isAssign) this.setVar(variable.ident[0] as string, v);
      else this.push(variable.ident[0] as string, v);
    }
    return v;
  }

  private notAFunction(args: readonly ArgNode[], final: Final): void {
    if (args.length > 1 || final !== MISSING) {
      this.errorf(`can't give argument to non-function ${nodeString(args[0] as ArgNode)}`);
    }
  }

  private evalCommand(dot: Dot, cmd: CommandNode, final: Final): unknown {
    const first = cmd.args[0] as ArgNode;
    switch (first.kind) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final).v;
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final).v;
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final).v;
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.kind) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot.v;
      case 'nil':
        return this.errorf('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
  }

  /** A number in a context without a type: float if written like one, else int. */
  private idealConstant(n: NumberNode): unknown {
    this.at(n);
    const hexInt = /^0[xX]/.test(n.text) && !/[pP]/.test(n.text);
    const runeInt = n.text.startsWith("'");
    if (n.isFloat && !hexInt && !runeInt && /[.eEpP]/.test(n.text)) return new GoNumber('float64', n.float);
    if (n.isInt) return n.int;
    if (n.isUint) this.errorf(`${n.text} overflows int`);
    return undefined;
  }

  private evalFieldNode(dot: Dot, field: FieldNode, args: readonly ArgNode[] | null, final: Final): Evaluated {
    this.at(field);
    return this.evalFieldChain(dot, dot, field, field.ident, args, final);
  }

  private evalChainNode(dot: Dot, chain: ChainNode, args: readonly ArgNode[] | null, final: Final): Evaluated {
    this.at(chain);
    if (chain.node.kind === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const v = this.evalArg(dot, null, chain.node);
    const boxed =
      (chain.node.kind === 'identifier' && FUNCS[chain.node.ident]?.boxedResult === true) || (chain.node.kind === 'dot' && dot.boxed);
    return this.evalFieldChain(dot, { v, boxed }, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: Dot, variable: VariableNode, args: readonly ArgNode[] | null, final: Final): Evaluated {
    this.at(variable);
    const { v, boxed } = this.varValue(variable.ident[0] as string);
    if (variable.ident.length === 1) {
      this.notAFunction(args ?? [variable], final);
      return { v, boxed };
    }
    return this.evalFieldChain(dot, { v, boxed }, variable, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(
    dot: Dot,
    receiver: Evaluated,
    node: AnyNode,
    ident: readonly string[],
    args: readonly ArgNode[] | null,
    final: Final,
  ): Evaluated {
    const n = ident.length;
    for (let i = 0; i < n - 1; i++) receiver = this.evalField(dot, ident[i] as string, node, null, MISSING, receiver);
    return this.evalField(dot, ident[n - 1] as string, node, args, final, receiver);
  }

  private evalField(dot: Dot, name: string, node: AnyNode, args: readonly ArgNode[] | null, final: Final, receiver: Evaluated): Evaluated {
    const v = receiver.v;
    if (v === undefined) this.errorf(`nil data; no entry for key ${JSON.stringify(name)}`);
    const typ = receiver.boxed ? 'interface {}' : goTypeName(v);
    if (v === null) this.errorf(`nil pointer evaluating ${typ}.${name}`);
    if (kindOf(v) === 'time') {
      const method = TIME_METHODS[name];
      if (method) return { v: this.evalCall(dot, method(timeValue(v as GoTime)), false, node, name, args, final), boxed: false };
    }
    const hasArgs = (args !== null && args.length > 1) || final !== MISSING;
    if (isGoMap(v)) {
      if (hasArgs) this.errorf(`${name} is not a method but has arguments`);
      const result = Object.prototype.hasOwnProperty.call(v, name) ? v[name] : undefined;
      if (result === undefined) this.errorf(`map has no entry for key ${JSON.stringify(name)}`);
      return { v: result, boxed: true };
    }
    return this.errorf(`can't evaluate field ${name} in type ${typ}`);
  }

  private evalFunction(dot: Dot, node: IdentifierNode, cmd: AnyNode, args: readonly ArgNode[] | null, final: Final): unknown {
    this.at(node);
    const fn = FUNCS[node.ident];
    if (!fn) return this.errorf(`${JSON.stringify(node.ident)} is not a defined function`);
    return this.evalCall(dot, fn, isBuiltin(node.ident), cmd, node.ident, args, final);
  }

  private evalCall(
    dot: Dot,
    fn: GoFunc,
    builtin: boolean,
    node: AnyNode,
    name: string,
    args: readonly ArgNode[] | null,
    final: Final,
  ): unknown {
    const argNodes = args ? args.slice(1) : [];
    const numIn = argNodes.length + (final !== MISSING ? 1 : 0);
    let numFixed = argNodes.length;
    if (fn.variadic) {
      numFixed = fn.params.length;
      if (numIn < numFixed) {
        this.errorf(`wrong number of args for ${name}: want at least ${fn.params.length} got ${argNodes.length}`);
      }
    } else if (numIn !== fn.params.length) {
      this.errorf(`wrong number of args for ${name}: want ${fn.params.length} got ${numIn}`);
    }

    if (builtin && (name === 'and' || name === 'or')) {
      // and/or short-circuit: return the first falsy (and) or truthy (or) argument, else the last.
      let v: unknown;
      for (const arg of argNodes) {
        v = this.evalArg(dot, 'value', arg);
        if (truth(v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = this.validateType(final, 'value');
      return v;
    }

    const argv: unknown[] = [];
    let i = 0;
    for (; i < numFixed && i < argNodes.length; i++) {
      argv.push(this.evalArg(dot, fn.params[i] as ParamType, argNodes[i] as ArgNode));
    }
    if (fn.variadic) {
      for (; i < argNodes.length; i++) argv.push(this.evalArg(dot, fn.variadic, argNodes[i] as ArgNode));
    }
    if (final !== MISSING) {
      let t = fn.params[fn.params.length - 1] as ParamType;
      if (fn.variadic) t = numIn - 1 < numFixed ? (fn.params[numIn - 1] as ParamType) : fn.variadic;
      argv.push(this.validateType(final, t));
    }
    try {
      return fn.call(argv, this.env);
    } catch (e) {
      if (!(e instanceof FuncError)) throw e;
      this.at(node);
      return this.errorf(`error calling ${name}: ${e.message}`);
    }
  }

  /** Evaluates an argument for a parameter of type `typ` (`null`: no type, as for a chain's head). */
  private evalArg(dot: Dot, typ: ParamType | null, n: ArgNode): unknown {
    this.at(n);
    switch (n.kind) {
      case 'dot':
        return this.validateType(dot.v, typ);
      case 'nil':
        if (typ === 'any') return null;
        if (typ === 'value') return undefined;
        return this.errorf(`cannot assign nil to ${PARAM_TYPE_NAMES[typ ?? 'any']}`);
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING).v, typ);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, null, MISSING).v, typ);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), typ);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, null, MISSING), typ);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, null, MISSING).v, typ);
    }
    switch (typ) {
      case 'string':
        if (n.kind === 'string') return n.text;
        return this.errorf(`expected string; found ${nodeString(n)}`);
      case 'any':
      case 'value':
      case null:
        return this.evalEmptyInterface(n);
      case 'time':
        return this.errorf(`can't handle ${nodeString(n)} for arg of type time.Time`);
    }
  }

  private evalEmptyInterface(n: ArgNode): unknown {
    this.at(n);
    switch (n.kind) {
      case 'bool':
        return n.value;
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return n.text;
    }
    return this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
  }

  /** Go's `validateType`: checks (and for nil, converts) a value passed to a parameter of type `typ`. */
  private validateType(v: unknown, typ: ParamType | null): unknown {
    if (v === undefined) {
      if (typ === null || typ === 'value') return undefined;
      if (typ === 'any') return null;
      return this.errorf(`invalid value; expected ${PARAM_TYPE_NAMES[typ]}`);
    }
    if (typ === null || typ === 'any' || typ === 'value') return v;
    const ok = typ === 'string' ? typeof v === 'string' : kindOf(v) === 'time';
    if (ok) return typ === 'time' ? timeValue(v as GoTime) : v;
    const got = v === null ? 'interface {}' : goTypeName(v);
    return this.errorf(`wrong type for value; expected ${PARAM_TYPE_NAMES[typ]}; got ${got}`);
  }
}

const unboxNil = (v: unknown): unknown => (v === null ? undefined : v);

/**
 * Parser for the Go `text/template` subset, a port of Go's `text/template/parse/parse.go`: same
 * grammar, same parse-time checks (functions must exist, variables must be declared, `{{break}}`
 * only inside `{{range}}`) and the same messages. `define`, `template` and `block` are not
 * supported and are rejected with a syntax error. Positions are those of the offending token.
 */
import { TemplateSyntaxError, lineColumn } from './errors.js';
import { lex } from './lexer.js';
import { type Token, type TokenType, tokenString } from './token.js';
import { LiteralError, parseNumber, unquoteCharConstant, unquoteString } from './literals.js';
import {
  type ArgNode,
  type CommandNode,
  type ListNode,
  type Node,
  type NumberNode,
  type PipeNode,
  type VariableNode,
  nodeString,
} from './nodes.js';

/** `{{end}}` and `{{else}}` end an item list; they never reach the tree. */
interface Delimiter {
  readonly kind: 'end' | 'else';
  readonly pos: number;
}

function isDelimiter(n: Node | Delimiter): n is Delimiter {
  return n.kind === 'end' || n.kind === 'else';
}

const OPERAND_START: ReadonlySet<TokenType> = new Set([
  'bool',
  'charConstant',
  'dot',
  'field',
  'identifier',
  'number',
  'nil',
  'rawString',
  'string',
  'variable',
  'leftParen',
]);

class Parser {
  private readonly tokens: Token[];
  private i = 0;
  /** The last token read (Go's `token[0]`): where errors point by default. */
  private last: Token;
  /** Variables in scope; `$` is always defined. */
  private vars: string[] = ['$'];
  private rangeDepth = 0;

  constructor(
    private readonly source: string,
    private readonly hasFunction: (name: string) => boolean,
  ) {
    this.tokens = lex(source);
    this.last = this.tokens[0] as Token;
  }

  private errorf(reason: string, pos: number = this.last.pos): never {
    const { line, column } = lineColumn(this.source, pos);
    throw new TemplateSyntaxError(reason, line, column);
  }

  private unexpected(token: Token, context: string): never {
    if (token.type === 'error') this.errorf(token.val, token.pos);
    this.errorf(`unexpected ${tokenString(token)} in ${context}`, token.pos);
  }

  private tokenAt(i: number): Token {
    return this.tokens[Math.min(i, this.tokens.length - 1)] as Token;
  }
  private next(): Token {
    this.last = this.tokenAt(this.i++);
    return this.last;
  }
  private backup(): void {
    this.i--;
  }
  private peek(): Token {
    return this.tokenAt(this.i);
  }
  private nextNonSpace(): Token {
    let t: Token;
    do t = this.next();
    while (t.type === 'space');
    return t;
  }
  private peekNonSpace(): Token {
    const t = this.nextNonSpace();
    this.backup();
    return t;
  }
  private expect(type: TokenType, context: string): Token {
    const t = this.nextNonSpace();
    if (t.type !== type) this.unexpected(t, context);
    return t;
  }

  parse(): ListNode {
    const root: ListNode = { kind: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peek().type !== 'eof') {
      const start = this.peek().pos;
      const n = this.textOrAction();
      if (isDelimiter(n)) this.errorf(`unexpected {{${n.kind}}}`, start);
      else root.nodes.push(n);
    }
    return root;
  }

  /** Items up to `{{end}}` or `{{else}}`, which is returned separately. */
  private itemList(): [ListNode, Delimiter] {
    const list: ListNode = { kind: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (isDelimiter(n)) return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node | Delimiter {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'text':
        return { kind: 'text', pos: token.pos, text: token.val };
      case 'leftDelim':
        return this.action();
      case 'comment':
        return { kind: 'comment', pos: token.pos };
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node | Delimiter {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'block':
      case 'define':
      case 'template':
        return this.errorf(`{{${token.type}}} is not supported`, token.pos);
      case 'break':
      case 'continue':
        return this.branchControl(token);
      case 'else':
        return this.elseControl();
      case 'end':
        return { kind: 'end', pos: this.expect('rightDelim', 'end').pos };
      case 'if':
        return { kind: 'if', ...this.parseControl(true, 'if') };
      case 'range':
        return { kind: 'range', ...this.parseControl(false, 'range') };
      case 'with':
        return { kind: 'with', ...this.parseControl(false, 'with') };
    }
    this.backup();
    const start = this.peek();
    // Variables declared here persist until the enclosing {{end}}.
    return { kind: 'action', pos: start.pos, pipe: this.pipeline('command', 'rightDelim') };
  }

  private branchControl(keyword: Token): Node {
    const name = keyword.type as 'break' | 'continue';
    const token = this.nextNonSpace();
    if (token.type !== 'rightDelim') this.unexpected(token, `{{${name}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${name}}} outside {{range}}`, keyword.pos);
    return { kind: name, pos: keyword.pos };
  }

  private elseControl(): Delimiter {
    const peek = this.peekNonSpace();
    // "{{else if ...": the if is left pending and parsed as a nested {{if}}.
    if (peek.type === 'if') return { kind: 'else', pos: peek.pos };
    return { kind: 'else', pos: this.expect('rightDelim', 'else').pos };
  }

  private parseControl(
    allowElseIf: boolean,
    context: 'if' | 'range' | 'with',
  ): { pos: number; pipe: PipeNode; list: ListNode; elseList: ListNode | null } {
    const varCount = this.vars.length;
    try {
      const pipe = this.pipeline(context, 'rightDelim');
      if (context === 'range') this.rangeDepth++;
      const [list, next] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | null = null;
      if (next.kind === 'else') {
        if (allowElseIf && this.peek().type === 'if') {
          // {{if a}}_{{else if b}}_{{end}} is {{if a}}_{{else}}{{if b}}_{{end}}{{end}}.
          this.next();
          elseList = { kind: 'list', pos: next.pos, nodes: [{ kind: 'if', ...this.parseControl(true, 'if') }] };
        } else {
          const [els, end] = this.itemList();
          if (end.kind !== 'end') this.errorf(`expected end; found {{${end.kind}}}`, end.pos);
          elseList = els;
        }
      }
      return { pos: pipe.pos, pipe, list, elseList };
    } finally {
      this.vars.length = varCount;
    }
  }

  /** `declarations? command ('|' command)*` up to `end`. */
  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
    const pipe: { kind: 'pipe'; pos: number; isAssign: boolean; decl: VariableNode[]; cmds: CommandNode[] } = {
      kind: 'pipe',
      pos: this.peekNonSpace().pos,
      isAssign: false,
      decl: [],
      cmds: [],
    };
    for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      const varIndex = this.i;
      this.next();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        pipe.isAssign = next.type === 'assign';
        this.nextNonSpace();
        pipe.decl.push(newVariable(v.pos, v.val));
        this.vars.push(v.val);
        break;
      }
      if (next.type === 'char' && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(newVariable(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const t = this.peekNonSpace().type;
          if (t === 'variable' || t === 'rightDelim' || t === 'rightParen') continue; // second variable
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      }
      // Not a declaration: "$x" is the first operand.
      this.i = varIndex;
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      if (token.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      if (!OPERAND_START.has(token.type)) this.unexpected(token, context);
      this.backup();
      pipe.cmds.push(this.command());
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, i) => {
      const first = c.args[0] as ArgNode;
      if (['bool', 'dot', 'nil', 'number', 'string'].includes(first.kind)) {
        this.errorf(`non executable command in pipeline stage ${i + 2}`, first.pos);
      }
    });
  }

  /** Space-separated operands up to `|` (consumed) or a closing delimiter (left). */
  private command(): CommandNode {
    const cmd: CommandNode = { kind: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) cmd.args.push(operand);
      const token = this.next();
      if (token.type === 'space') continue;
      if (token.type === 'rightDelim' || token.type === 'rightParen') this.backup();
      else if (token.type !== 'pipe') this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  /** A term followed by `.Field` accesses. */
  private operand(): ArgNode | null {
    const node = this.term();
    if (!node) return null;
    if (this.peek().type !== 'field') return node;
    const pos = this.peek().pos;
    const fields: string[] = [];
    while (this.peek().type === 'field') fields.push(this.next().val.slice(1));
    switch (node.kind) {
      case 'field':
        return { kind: 'field', pos, ident: [...node.ident, ...fields] };
      case 'variable':
        return { kind: 'variable', pos, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        return this.errorf(`unexpected . after term ${JSON.stringify(nodeString(node))}`);
      default:
        return { kind: 'chain', pos, node, field: fields };
    }
  }

  private term(): ArgNode | null {
    const token = this.nextNonSpace();
    try {
      switch (token.type) {
        case 'identifier':
          if (!this.hasFunction(token.val)) this.errorf(`function ${JSON.stringify(token.val)} not defined`);
          return { kind: 'identifier', pos: token.pos, ident: token.val };
        case 'dot':
          return { kind: 'dot', pos: token.pos };
        case 'nil':
          return { kind: 'nil', pos: token.pos };
        case 'variable':
          return this.useVar(token);
        case 'field':
          return { kind: 'field', pos: token.pos, ident: token.val.slice(1).split('.') };
        case 'bool':
          return { kind: 'bool', pos: token.pos, value: token.val === 'true' };
        case 'charConstant': {
          const r = unquoteCharConstant(token.val);
          return { kind: 'number', pos: token.pos, text: token.val, isInt: true, isUint: true, isFloat: true, int: r, float: r };
        }
        case 'number':
          return { kind: 'number', pos: token.pos, text: token.val, ...parseNumber(token.val) } satisfies NumberNode;
        case 'leftParen':
          return this.pipeline('parenthesized pipeline', 'rightParen');
        case 'string':
        case 'rawString':
          return { kind: 'string', pos: token.pos, quoted: token.val, text: unquoteString(token.val) };
      }
    } catch (e) {
      if (e instanceof LiteralError) this.errorf(e.message, token.pos);
      throw e;
    }
    this.backup();
    return null;
  }

  private useVar(token: Token): VariableNode {
    const v = newVariable(token.pos, token.val);
    if (!this.vars.includes(v.ident[0] as string)) {
      this.errorf(`undefined variable ${JSON.stringify(v.ident[0])}`, token.pos);
    }
    return v;
  }
}

function newVariable(pos: number, name: string): VariableNode {
  return { kind: 'variable', pos, ident: name.split('.') };
}

/** Parses `source`; `hasFunction` tells which function names exist. @throws TemplateSyntaxError */
export function parseTemplate(source: string, hasFunction: (name: string) => boolean): ListNode {
  return new Parser(source, hasFunction).parse();
}

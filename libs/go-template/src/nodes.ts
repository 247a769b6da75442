/**
 * Parse tree of a Go `text/template` (the subset we support), shaped like Go's `text/template/parse`.
 * Every node carries `pos`, a UTF-16 offset into the template source; positions are the ones Go
 * records, so exec errors point where Go's do (e.g. `.a.b` is positioned at its last field token,
 * as in Go's parser).
 */

export type Node = TextNode | ActionNode | IfNode | RangeNode | WithNode | BreakNode | ContinueNode | CommentNode;

/** An argument or command word. */
export type ArgNode =
  FieldNode | VariableNode | ChainNode | IdentifierNode | DotNode | NilNode | BoolNode | NumberNode | StringNode | PipeNode;

export interface ListNode {
  readonly kind: 'list';
  readonly pos: number;
  readonly nodes: Node[];
}

export interface TextNode {
  readonly kind: 'text';
  readonly pos: number;
  readonly text: string;
}

export interface CommentNode {
  readonly kind: 'comment';
  readonly pos: number;
}

export interface ActionNode {
  readonly kind: 'action';
  readonly pos: number;
  readonly pipe: PipeNode;
}

export interface BranchNode<K extends 'if' | 'range' | 'with'> {
  readonly kind: K;
  readonly pos: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | null;
}
export type IfNode = BranchNode<'if'>;
export type RangeNode = BranchNode<'range'>;
export type WithNode = BranchNode<'with'>;

export interface BreakNode {
  readonly kind: 'break';
  readonly pos: number;
}
export interface ContinueNode {
  readonly kind: 'continue';
  readonly pos: number;
}

export interface PipeNode {
  readonly kind: 'pipe';
  readonly pos: number;
  /** `$x = ...` rather than `$x := ...`. */
  readonly isAssign: boolean;
  readonly decl: VariableNode[];
  readonly cmds: CommandNode[];
}

export interface CommandNode {
  readonly kind: 'command';
  readonly pos: number;
  readonly args: ArgNode[];
}

/** `.a.b`: `ident` holds `['a', 'b']`. */
export interface FieldNode {
  readonly kind: 'field';
  readonly pos: number;
  readonly ident: string[];
}

/** `$x.a.b`: `ident` holds `['$x', 'a', 'b']`. */
export interface VariableNode {
  readonly kind: 'variable';
  readonly pos: number;
  readonly ident: string[];
}

/** `(pipeline).a.b` or `fn.a`. */
export interface ChainNode {
  readonly kind: 'chain';
  readonly pos: number;
  readonly node: ArgNode;
  readonly field: string[];
}

/** A function name. */
export interface IdentifierNode {
  readonly kind: 'identifier';
  readonly pos: number;
  readonly ident: string;
}

export interface DotNode {
  readonly kind: 'dot';
  readonly pos: number;
}
export interface NilNode {
  readonly kind: 'nil';
  readonly pos: number;
}
export interface BoolNode {
  readonly kind: 'bool';
  readonly pos: number;
  readonly value: boolean;
}

/** A numeric or character constant, with Go's "which types can hold it" flags. */
export interface NumberNode {
  readonly kind: 'number';
  readonly pos: number;
  readonly text: string;
  readonly isInt: boolean;
  /** Fits uint64 (only matters for constants above int64's range, which Go rejects as "overflows int"). */
  readonly isUint: boolean;
  readonly isFloat: boolean;
  /** Valid when `isInt` (int64 range; exact only within ±2^53). */
  readonly int: number;
  /** Valid when `isFloat`. */
  readonly float: number;
}

export interface StringNode {
  readonly kind: 'string';
  readonly pos: number;
  /** The literal as written, quotes included. */
  readonly quoted: string;
  readonly text: string;
}

/** Go's `Node.String()`: the source-like rendering used in error contexts ("at <.a.b>"). */
export function nodeString(n: Node | ArgNode | CommandNode | ListNode): string {
  switch (n.kind) {
    case 'text':
      return n.text;
    case 'comment':
      return '{{/* */}}';
    case 'action':
      return `{{${nodeString(n.pipe)}}}`;
    case 'if':
    case 'range':
    case 'with': {
      const elsePart = n.elseList ? `{{else}}${nodeString(n.elseList)}` : '';
      return `{{${n.kind} ${nodeString(n.pipe)}}}${nodeString(n.list)}${elsePart}{{end}}`;
    }
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'pipe': {
      // Go prints " := " for assignments too.
      const decl = n.decl.length > 0 ? `${n.decl.map(nodeString).join(', ')} := ` : '';
      return decl + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.kind === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'field':
      return n.ident.map((id) => `.${id}`).join('');
    case 'variable':
      return n.ident.join('.');
    case 'chain': {
      const head = n.node.kind === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node);
      return head + n.field.map((f) => `.${f}`).join('');
    }
    case 'identifier':
      return n.ident;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
  }
}

/** One problem in a config file, positioned like a compiler diagnostic (1-based line/column). */
export interface ConfigIssue {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Field path such as `resources[2].lifecycle.delete.when.expression`; `""` for the document. */
  readonly path: string;
  readonly message: string;
}

/** Formats an issue as `file:line:column path: message` (path omitted when empty). */
export function formatConfigIssue(issue: ConfigIssue): string {
  const where = `${issue.file}:${issue.line}:${issue.column}`;
  return issue.path ? `${where} ${issue.path}: ${issue.message}` : `${where} ${issue.message}`;
}

/**
 * Every problem found while loading a task or deployment config, reported all at once.
 * `message` is the formatted issues joined by newlines, in file order.
 * A bad config is terminal for the worker (never retried): a retry cannot fix it.
 */
export class TaskConfigError extends Error {
  readonly issues: readonly ConfigIssue[];
  /**
   * True when the file could not be used at all (unreadable, not YAML, empty): nothing was validated.
   * `decom adapter validate` exits 2 for these and 1 for a config with errors (docs/adapter-tools.md).
   */
  readonly unusable: boolean;

  constructor(issues: readonly ConfigIssue[], options: { unusable?: boolean } = {}) {
    const sorted = [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
    super(sorted.map(formatConfigIssue).join('\n'));
    this.name = 'TaskConfigError';
    this.issues = sorted;
    this.unusable = options.unusable ?? false;
  }
}

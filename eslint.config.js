// The lint gate `npm test` runs first: type-aware rules for the mistakes a reviewer cannot see by reading
// (a promise nobody awaits, a promise where a callback is expected) and one spelling of type-only imports.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.generated.ts', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: { allowDefaultProject: ['apps/ui/vite.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `import('x').T` in a type position is a type-only import too; the rule is about `import { T }`.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
    },
  },
  // Layering (docs/architecture.md): an app or lib reaches another only through its public entry point, the
  // `@decom/<name>` alias, so a module can move inside its own folder without breaking a neighbour. The API and
  // the worker never import each other (the CLI composes them), and a lib imports no app. A later block's
  // `no-restricted-imports` replaces an earlier one's for its files, so each repeats the common pattern.
  layering(['apps/**/*.ts', 'libs/**/*.ts']),
  layering(['apps/api/**/*.ts'], ['@decom/worker']),
  layering(['apps/worker/**/*.ts'], ['@decom/api']),
  layering(['libs/**/*.ts'], ['@decom/api', '@decom/worker']),
);

/** The `no-restricted-imports` block for `files`: no relative import into another app's or lib's `src/`, nor of the `apps` named. */
function layering(files, apps = []) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: apps.map((name) => ({
            name,
            message: `${name} is another app: the CLI composes the apps (docs/architecture.md); share through a lib.`,
          })),
          patterns: [
            {
              regex: '^(\\.\\./)+([a-z-]+/)?[a-z-]+/src(/|$)',
              message: "Import another app or lib through its entry point ('@decom/<name>'), not its files.",
            },
          ],
        },
      ],
    },
  };
}

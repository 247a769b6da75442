/** Jest in native ESM mode (Nest 12 is ESM-only); ts-jest transpiles, `npm run typecheck` type-checks. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
  // apps/ui is the browser app (its own tsconfig, built by Vite); its browser tests live in test/e2e.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/apps/ui/'],
  moduleNameMapper: {
    '^@decom/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true, tsconfig: 'tsconfig.json' }],
  },
  testTimeout: 60000,
};

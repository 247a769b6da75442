/** Jest in native ESM mode (Nest 12 is ESM-only); ts-jest transpiles, `npm run typecheck` type-checks. */
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // apps/ui is the browser app (its own tsconfig, built by Vite); its browser tests live in test/e2e.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/apps/ui/'],
  moduleNameMapper: {
    // The apps' public entry points; every other alias is a lib.
    '^@decom/(api|worker)$': '<rootDir>/apps/$1/src/index.ts',
    '^@decom/([a-z-]+)/testing$': '<rootDir>/libs/$1/src/testing/index.ts',
    '^@decom/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    // A client command needs only the environment reader, not the YAML and CEL the config barrel loads.
    '^@decom/config/app-config$': '<rootDir>/libs/config/src/app-config.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true, tsconfig: 'tsconfig.json' }],
  },
};

export default {
  projects: [
    // Pure code: a unit test that needs more than 5 s is waiting on something it should not. (Jest reads
    // `testTimeout` only globally, so the unit project sets its own in a setup file.)
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/?(*.)+(spec).ts'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.(int|e2e|chaos)-spec\\.ts$'],
      setupFilesAfterEnv: ['<rootDir>/test/support/unit-test-timeout.ts'],
    },
    // Real PostgreSQL, Redis, HTTP servers, browsers and child processes: start-up alone can take seconds.
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/?(*.)+(int-spec|e2e-spec).ts'],
      globalSetup: '<rootDir>/test/support/build-once.mjs',
    },
  ],
  testTimeout: 60_000,
};

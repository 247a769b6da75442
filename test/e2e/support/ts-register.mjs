// `node --import ./test/e2e/support/ts-register.mjs apps/cli/src/main.ts ...` runs the CLI from its
// TypeScript sources, so e2e tests can spawn a real `decom` child process without a build.
import { register } from 'node:module';

register('./ts-loader.mjs', import.meta.url);

/** Unit tests (pure code) get 5 s each; integration and e2e suites keep the global 60 s (jest.config.js). */
import { jest } from '@jest/globals';

jest.setTimeout(5_000);

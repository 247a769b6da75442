import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_VARIABLES, configVariablesHelp } from './config-variables.js';

describe('CONFIG_VARIABLES (decom start --help)', () => {
  it('lists every variable loadAppConfig reads, and nothing it does not', () => {
    const source = readFileSync(resolve('libs/config/src/app-config.ts'), 'utf8');
    const read = [...new Set([...source.matchAll(/env\['([A-Z0-9_]+)'\]/g)].map((m) => m[1]!))].sort();
    expect(CONFIG_VARIABLES.map((v) => v.name).sort()).toEqual(read);
  });

  it('renders one line per variable with its default', () => {
    const help = configVariablesHelp();
    expect(help).toContain('DECOM_METRICS_PORT');
    expect(help.split('\n').filter((l) => l.includes('(default: '))).toHaveLength(CONFIG_VARIABLES.length);
  });
});

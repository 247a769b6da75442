import { parseAdapterConfig } from './adapter-config.parser.js';

/** HyperFleet's shipped deployment configs hold `base_url: CHANGE_ME` (hyperfleet-adapter `docs/configuration.md`). */
const SHIPPED = `adapter:\n  name: cl-namespace\nclients:\n  hyperfleet_api:\n    base_url: CHANGE_ME\n    version: v1\n`;

describe('deployment config environment (HYPERFLEET_* overrides, as HyperFleet reads them)', () => {
  it('HYPERFLEET_API_BASE_URL replaces the CHANGE_ME placeholder', () => {
    const config = parseAdapterConfig(SHIPPED, 'adapter-config.yaml', { HYPERFLEET_API_BASE_URL: 'http://api.example:8000' });
    expect(config.clients.hyperfleetApi.baseUrl).toBe('http://api.example:8000');
  });

  it("the hosting engine's API URL stands in for a placeholder, but never for a real URL or an override", () => {
    const host = { defaultBaseUrl: 'http://127.0.0.1:9999' };
    expect(parseAdapterConfig(SHIPPED, 'a.yaml', {}, host).clients.hyperfleetApi.baseUrl).toBe('http://127.0.0.1:9999');
    const real = SHIPPED.replace('CHANGE_ME', 'https://hyperfleet.example');
    expect(parseAdapterConfig(real, 'a.yaml', {}, host).clients.hyperfleetApi.baseUrl).toBe('https://hyperfleet.example');
    expect(
      parseAdapterConfig(SHIPPED, 'a.yaml', { HYPERFLEET_API_BASE_URL: 'http://override:1' }, host).clients.hyperfleetApi.baseUrl,
    ).toBe('http://override:1');
  });

  it('without an override or a host, the placeholder is a positioned error', () => {
    expect(() => parseAdapterConfig(SHIPPED, 'a.yaml')).toThrow('a.yaml:5:15 clients.hyperfleet_api.base_url: must be an http(s) URL');
    expect(() => parseAdapterConfig(SHIPPED, 'a.yaml', { HYPERFLEET_API_BASE_URL: 'nope' })).toThrow(
      'must be an http(s) URL (set by HYPERFLEET_API_BASE_URL)',
    );
  });
});

import { resolveApiUrl } from './api-url.js';

describe("resolveApiUrl: HyperFleet's base URL and prefix rules", () => {
  const base = 'http://api.local:8000';
  it.each([
    ['/clusters/c1', 'http://api.local:8000/api/hyperfleet/v1/clusters/c1'],
    ['clusters/c1/statuses', 'http://api.local:8000/api/hyperfleet/v1/clusters/c1/statuses'],
    ['/clusters?search=x', 'http://api.local:8000/api/hyperfleet/v1/clusters?search=x'],
    ['api/hyperfleet/v2/clusters', 'http://api.local:8000/api/hyperfleet/v2/clusters'],
    ['/api/hyperfleet/v1/clusters/c1', 'http://api.local:8000/api/hyperfleet/v1/clusters/c1'],
    [
      'http://api.local:8000/api/hyperfleet/v1/clusters/c1/nodepools/n1',
      'http://api.local:8000/api/hyperfleet/v1/clusters/c1/nodepools/n1',
    ],
    ['http://elsewhere:9000/x', 'http://elsewhere:9000/x'],
  ])('%s → %s', (url, expected) => {
    expect(resolveApiUrl(`${base}/`, 'v1', url)).toBe(expected);
  });
});

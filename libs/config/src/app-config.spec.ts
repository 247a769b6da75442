import { ConfigError, loadAppConfig, parseEntitiesConfig, EntitiesConfigError } from '@decom/config';

describe('loadAppConfig', () => {
  it('applies the embedded defaults', () => {
    const config = loadAppConfig({}, '/srv/decom');
    expect(config).toMatchObject({ port: 8000, dataDir: '/srv/decom/data', eventStore: 'sqlite', admins: [] });
    expect(config.kubeconfig).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: must be an integer between 0 and 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT: must be an integer'],
    [{ DECOM_EVENT_STORE: 'mysql' }, 'DECOM_EVENT_STORE: must be one of sqlite, postgres, esdb, got "mysql"'],
    [{ DECOM_EVENT_STORE: 'postgres' }, 'DATABASE_URL: is required when DECOM_EVENT_STORE=postgres'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must use postgres:// or postgresql://'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL: is not a valid URL'],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadAppConfig(env, '/x')).toThrow(ConfigError);
    expect(() => loadAppConfig(env, '/x')).toThrow(message);
  });
});

describe('parseEntitiesConfig', () => {
  it('reads kinds', () => {
    const kinds = parseEntitiesConfig('entities:\n  - kind: Cluster\n    plural: clusters\n    required_adapters: [validation]\n', 'e.yaml');
    expect(kinds).toEqual([{ kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] }]);
  });

  it('reports every problem with file:line:column', () => {
    const text = 'entities:\n  - kind: Cluster\n    plurl: clusters\n  - kind: NodePool\n    plural: nodepools\n    parent_kind: Cloud\n    on_parent_delete: wipe\n';
    let error: EntitiesConfigError | undefined;
    try {
      parseEntitiesConfig(text, 'e.yaml');
    } catch (e) {
      error = e as EntitiesConfigError;
    }
    expect(error?.issues).toEqual([
      'e.yaml:3:5 entities[0].plurl: unknown field',
      'e.yaml:2:5 entities[0].plural: must be a non-empty string',
      'e.yaml:7:23 entities[1].on_parent_delete: must be cascade or restrict, got "wipe"',
      'e.yaml:6:18 entities[1].parent_kind: unknown kind "Cloud"',
    ]);
  });
});

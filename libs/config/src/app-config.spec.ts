import { ConfigError, loadAppConfig, parseEntitiesConfig, type EntitiesConfigError } from '@decom/config';

describe('loadAppConfig', () => {
  it('applies the embedded defaults', () => {
    const config = loadAppConfig({}, '/srv/decom');
    expect(config).toMatchObject({ port: 8000, dataDir: '/srv/decom/data', eventStore: 'sqlite', admins: [] });
    expect(config.kubeconfig).toBeUndefined();
    expect(config.pgSchema).toBe('decom');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.eventStoreConnectionString).toBeUndefined();
  });

  it('selects the postgres profile with its schema', () => {
    const config = loadAppConfig(
      { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://u@db/decom', DECOM_PG_SCHEMA: 'fleet_a' },
      '/x',
    );
    expect(config).toMatchObject({ eventStore: 'postgres', databaseUrl: 'postgres://u@db/decom', pgSchema: 'fleet_a' });
  });

  it('selects the esdb profile: events in EventStoreDB, read models in PostgreSQL', () => {
    const config = loadAppConfig(
      { DECOM_EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false', DATABASE_URL: 'postgresql://db/decom' },
      '/x',
    );
    expect(config).toMatchObject({
      eventStore: 'esdb',
      eventStoreConnectionString: 'esdb://localhost:2113?tls=false',
      databaseUrl: 'postgresql://db/decom',
    });
  });

  it('accepts a multi-host EventStoreDB cluster string (not a valid URL)', () => {
    const value = 'esdb+discover://admin:changeit@es1:2113,es2:2113?tls=true';
    expect(loadAppConfig({ EVENTSTORE_CONNECTION_STRING: value }, '/x').eventStoreConnectionString).toBe(value);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: must be an integer between 0 and 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT: must be an integer'],
    [{ DECOM_EVENT_STORE: 'mysql' }, 'DECOM_EVENT_STORE: must be one of sqlite, postgres, esdb, got "mysql"'],
    [{ DECOM_EVENT_STORE: 'postgres' }, 'DATABASE_URL: is required when DECOM_EVENT_STORE=postgres'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must use postgres:// or postgresql://'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL: is not a valid URL'],
    [
      { DECOM_EVENT_STORE: 'esdb', DATABASE_URL: 'postgres://db/x' },
      'EVENTSTORE_CONNECTION_STRING: is required when DECOM_EVENT_STORE=esdb',
    ],
    [
      { DECOM_EVENT_STORE: 'esdb', EVENTSTORE_CONNECTION_STRING: 'esdb://es:2113' },
      'DATABASE_URL: is required when DECOM_EVENT_STORE=esdb',
    ],
    [{ EVENTSTORE_CONNECTION_STRING: 'http://es:2113' }, 'EVENTSTORE_CONNECTION_STRING: must use esdb:// or esdb+discover://'],
    [{ EVENTSTORE_CONNECTION_STRING: 'esdb://' }, 'EVENTSTORE_CONNECTION_STRING: must use esdb:// or esdb+discover://'],
    [{ DECOM_PG_SCHEMA: 'Decom; DROP' }, 'DECOM_PG_SCHEMA: must be a lower-case SQL identifier'],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadAppConfig(env, '/x')).toThrow(ConfigError);
    expect(() => loadAppConfig(env, '/x')).toThrow(message);
  });
});

describe('DECOM_ADMINS', () => {
  it('reads a comma list, spaces around commas allowed', () => {
    expect(loadAppConfig({ DECOM_ADMINS: 'root@x.com, bob@x.com ,carol' }, '/srv').admins).toEqual(['root@x.com', 'bob@x.com', 'carol']);
    expect(loadAppConfig({ DECOM_ADMINS: '' }, '/srv').admins).toEqual([]);
  });

  it('refuses an entry no token identity can match: empty, not lower-case, not printable', () => {
    expect(() => loadAppConfig({ DECOM_ADMINS: 'root@x.com, ,bob@x.com' }, '/srv')).toThrow(
      'DECOM_ADMINS: entry 2 is empty, got "root@x.com, ,bob@x.com"',
    );
    expect(() => loadAppConfig({ DECOM_ADMINS: 'Root@X.com' }, '/srv')).toThrow(
      'DECOM_ADMINS: entry 1 "Root@X.com": e-mail identity is not lower-case',
    );
    expect(() => loadAppConfig({ DECOM_ADMINS: 'a,b\u0000c' }, '/srv')).toThrow('DECOM_ADMINS: entry 2 is not an identity');
  });
});

describe('parseEntitiesConfig', () => {
  it('reads deletion_propagation and refuses anything but Foreground or Background with file:line:column', () => {
    const kinds = parseEntitiesConfig(
      'entities:\n  - kind: Cluster\n    plural: clusters\n    deletion_propagation: Foreground\n',
      'e.yaml',
    );
    expect(kinds[0]).toMatchObject({ deletion_propagation: 'Foreground' });
    expect(() =>
      parseEntitiesConfig('entities:\n  - kind: Cluster\n    plural: clusters\n    deletion_propagation: Orphan\n', 'e.yaml'),
    ).toThrow('e.yaml:4:27 entities[0].deletion_propagation: must be Foreground or Background, got "Orphan"');
  });

  it('reads verify_cleanup (absent = on) and refuses anything but true or false with file:line:column', () => {
    const kind = (extra: string) => `entities:\n  - kind: Cluster\n    plural: clusters\n${extra}`;
    expect(parseEntitiesConfig(kind(''), 'e.yaml')[0]!.verify_cleanup).toBeUndefined();
    expect(parseEntitiesConfig(kind('    verify_cleanup: true\n'), 'e.yaml')[0]!.verify_cleanup).toBeUndefined();
    expect(parseEntitiesConfig(kind('    verify_cleanup: false\n'), 'e.yaml')[0]).toMatchObject({ verify_cleanup: false });
    expect(() => parseEntitiesConfig(kind('    verify_cleanup: "no"\n'), 'e.yaml')).toThrow(
      'e.yaml:4:21 entities[0].verify_cleanup: must be true or false, got "no"',
    );
  });

  it('refuses name limits that are not whole numbers from 1 to 253, or a minimum above the maximum', () => {
    const kind = (extra: string) => `entities:\n  - kind: Cluster\n    plural: clusters\n${extra}`;
    expect(() => parseEntitiesConfig(kind('    name_max_len: banana\n'), 'e.yaml')).toThrow(
      'e.yaml:4:19 entities[0].name_max_len: must be an integer from 1 to 253 (characters), got "banana"',
    );
    expect(() => parseEntitiesConfig(kind('    name_max_len: -1\n'), 'e.yaml')).toThrow(
      'e.yaml:4:19 entities[0].name_max_len: must be an integer from 1 to 253 (characters), got -1',
    );
    expect(() => parseEntitiesConfig(kind('    name_min_len: 2.5\n'), 'e.yaml')).toThrow(
      'entities[0].name_min_len: must be an integer from 1 to 253',
    );
    expect(() => parseEntitiesConfig(kind('    name_min_len: 10\n    name_max_len: 5\n'), 'e.yaml')).toThrow(
      'e.yaml:4:19 entities[0].name_min_len: must not exceed name_max_len (5), got 10',
    );
    expect(() => parseEntitiesConfig(kind('    require_spec_schema: "yes"\n'), 'e.yaml')).toThrow(
      'entities[0].require_spec_schema: must be true or false, got "yes"',
    );
    expect(parseEntitiesConfig(kind('    name_min_len: 3\n    name_max_len: 53\n'), 'e.yaml')[0]).toMatchObject({
      name_min_len: 3,
      name_max_len: 53,
    });
  });

  it('refuses parent kinds that form a cycle, at each kind on it (no kind of the loop could ever be created)', () => {
    const file =
      'entities:\n  - kind: Cluster\n    plural: clusters\n    parent_kind: NodePool\n  - kind: NodePool\n    plural: nodepools\n    parent_kind: Cluster\n  - kind: Self\n    plural: selves\n    parent_kind: Self\n';
    expect(() => parseEntitiesConfig(file, 'e.yaml')).toThrow(
      [
        'e.yaml:4:18 entities[0].parent_kind: parent kinds form a cycle: Cluster → NodePool → Cluster',
        'e.yaml:7:18 entities[1].parent_kind: parent kinds form a cycle: NodePool → Cluster → NodePool',
        'e.yaml:10:18 entities[2].parent_kind: parent kinds form a cycle: Self → Self',
      ].join('\n'),
    );
    expect(
      parseEntitiesConfig(
        'entities:\n  - kind: Cluster\n    plural: clusters\n  - kind: NodePool\n    plural: nodepools\n    parent_kind: Cluster\n',
        'e.yaml',
      ),
    ).toHaveLength(2);
  });

  it('reads kinds', () => {
    const kinds = parseEntitiesConfig(
      'entities:\n  - kind: Cluster\n    plural: clusters\n    required_adapters: [validation]\n',
      'e.yaml',
    );
    expect(kinds).toEqual([{ kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] }]);
  });

  it('reports every problem with file:line:column', () => {
    const text =
      'entities:\n  - kind: Cluster\n    plurl: clusters\n  - kind: NodePool\n    plural: nodepools\n    parent_kind: Cloud\n    on_parent_delete: wipe\n';
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

describe('DECOM_SERVER_CONFIG, DECOM_AUTH, HOST', () => {
  it('defaults to 127.0.0.1 and auto; resolves the server config path', () => {
    const config = loadAppConfig({ DECOM_SERVER_CONFIG: 'conf/server.yaml' }, '/srv/decom');
    expect(config).toMatchObject({ host: '127.0.0.1', serverConfigFile: '/srv/decom/conf/server.yaml', authDisabledExplicitly: false });
    expect(loadAppConfig({ DECOM_AUTH: 'disabled', HOST: '0.0.0.0' }, '/srv').authDisabledExplicitly).toBe(true);
    expect(() => loadAppConfig({ DECOM_AUTH: 'off' }, '/srv')).toThrow('DECOM_AUTH: must be one of auto, disabled, got "off"');
  });

  it('refuses DECOM_SERVER_CONFIG set but empty: it would silently mean authentication off', () => {
    for (const value of ['', '  ']) {
      expect(() => loadAppConfig({ DECOM_SERVER_CONFIG: value }, '/srv')).toThrow(
        /^DECOM_SERVER_CONFIG: is set but empty: name the server config file/,
      );
    }
    expect(loadAppConfig({}, '/srv').serverConfigFile).toBeUndefined();
  });
});

describe('DECOM_HEAP_GROWING_PERCENT', () => {
  it('is undefined when unset (each command has its default), takes 0 (V8 default) and any whole number, refuses the rest', () => {
    expect(loadAppConfig({}, '/x').heapGrowingPercent).toBeUndefined();
    expect(loadAppConfig({ DECOM_HEAP_GROWING_PERCENT: '50' }, '/x').heapGrowingPercent).toBe(50);
    expect(loadAppConfig({ DECOM_HEAP_GROWING_PERCENT: '0' }, '/x').heapGrowingPercent).toBe(0);
    expect(loadAppConfig({ DECOM_HEAP_GROWING_PERCENT: '100' }, '/x').heapGrowingPercent).toBe(100);
    expect(() => loadAppConfig({ DECOM_HEAP_GROWING_PERCENT: '1.5' }, '/x')).toThrow(ConfigError);
  });

  it('is bounded at 300 (a typo must not let the heap grow 50-fold)', () => {
    expect(loadAppConfig({ DECOM_HEAP_GROWING_PERCENT: '300' }, '/x').heapGrowingPercent).toBe(300);
    expect(() => loadAppConfig({ DECOM_HEAP_GROWING_PERCENT: '5000' }, '/x')).toThrow(
      'DECOM_HEAP_GROWING_PERCENT: must be an integer from 0 to 300, got "5000"',
    );
  });
});

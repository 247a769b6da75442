import { parseServerConfig, ServerConfigError } from './server-config.js';

const issues = (text: string): readonly string[] => {
  try {
    parseServerConfig(text, '/etc/decom/server.yaml');
  } catch (error) {
    if (error instanceof ServerConfigError) return error.issues;
    throw error;
  }
  return [];
};

describe('server config (DECOM_SERVER_CONFIG)', () => {
  it('reads HyperFleet server.jwt, authorization and rate_limit with defaults', () => {
    const config = parseServerConfig(
      [
        'server:',
        '  jwt:',
        '    enabled: true',
        '    configs:',
        '      - issuer_url: https://idp.example.com',
        '        jwks_file: keys/jwks.json',
        '        audience: decom',
        '        identity_header: X-HyperFleet-Identity',
        '        identity_claim_pattern: "@example\\\\.com$"',
        'authorization:',
        '  admins: [root@example.com]',
        '  adapters:',
        '    validation: [system:serviceaccount:hf:validation]',
      ].join('\n'),
      '/etc/decom/server.yaml',
    );
    expect(config.jwt).toMatchObject({
      enabled: true,
      anonymous_reads: false,
      clock_skew_seconds: 30,
      jwks_refetch_cooldown_seconds: 30,
      max_token_lifetime_seconds: 86_400,
    });
    expect(config.jwt.configs[0]).toMatchObject({
      issuer_url: 'https://idp.example.com',
      jwks_file: '/etc/decom/keys/jwks.json',
      identity_claim: 'email',
      identity_header: 'x-hyperfleet-identity',
    });
    expect(config.jwt.configs[0]!.identity_claim_pattern!.test('a@example.com')).toBe(true);
    expect(config.authorization).toEqual({
      admins: ['root@example.com'],
      adapters: { validation: ['system:serviceaccount:hf:validation'] },
    });
    expect(config.rate_limit).toEqual({ enabled: false, max: 600, time_window_ms: 60_000 });
    expect(config.streams).toEqual({ max_per_caller: 10, max_total: 500 });
  });

  it('reads role grants bound to an issuer ({issuer, identity}); refuses one naming an issuer not configured', () => {
    const head = [
      'server:',
      '  jwt:',
      '    enabled: true',
      '    configs:',
      '      - { issuer_url: https://idp, jwks_file: /k.json, audience: decom }',
      'authorization:',
    ];
    const config = parseServerConfig(
      [
        ...head,
        '  admins: [root@x.test, { issuer: https://idp, identity: alice@x.test }]',
        '  adapters:',
        '    validation: [{ issuer: https://idp, identity: "system:sa:v" }]',
      ].join('\n'),
      '/etc/decom/server.yaml',
    );
    expect(config.authorization.admins).toEqual(['root@x.test', { issuer: 'https://idp', identity: 'alice@x.test' }]);
    expect(config.authorization.adapters).toEqual({ validation: [{ issuer: 'https://idp', identity: 'system:sa:v' }] });
    expect(
      issues(
        [
          ...head,
          '  operators:',
          '    - { issuer: https://k8s.test, identity: ops@x.test }',
          '    - { issuer: https://idp, identity: Ops@X.test, role: x }',
        ].join('\n'),
      ),
    ).toEqual([
      '/etc/decom/server.yaml:9:52 authorization.operators[1].role: unknown field (expected one of issuer, identity)',
      '/etc/decom/server.yaml:9:40 authorization.operators[1].identity: must be in canonical form: e-mail identity is not lower-case (callers with it are refused)',
      '/etc/decom/server.yaml:8:17 authorization.operators[0].issuer: "https://k8s.test" is not a configured issuer_url (one of https://idp)',
    ]);
  });

  it('refuses a duplicate issuer at the line of the duplicate', () => {
    const issuer = (url: string) => `      - { issuer_url: ${url}, jwks_file: /k.json, audience: decom }`;
    expect(
      issues(
        ['server:', '  jwt:', '    enabled: true', '    configs:', issuer('https://a'), issuer('https://b'), issuer('https://a')].join(
          '\n',
        ),
      ),
    ).toEqual(['/etc/decom/server.yaml:7:23 server.jwt.configs[2].issuer_url: duplicate issuer "https://a"']);
  });

  it('reads server.graphql.introspection: on by default with JWT off, off by default with JWT on, as set otherwise', () => {
    expect(parseServerConfig('server: {}\n', 'f.yaml').graphql).toEqual({ introspection: true });
    const jwt =
      'server:\n  jwt:\n    enabled: true\n    configs:\n      - { issuer_url: https://idp, jwks_file: /k.json, audience: decom }\n';
    expect(parseServerConfig(jwt, 'f.yaml').graphql).toEqual({ introspection: false });
    expect(parseServerConfig(`${jwt}  graphql:\n    introspection: true\n`, 'f.yaml').graphql).toEqual({ introspection: true });
    expect(issues('server:\n  graphql: { introspection: sometimes }\n')).toEqual([
      expect.stringMatching(/^\/etc\/decom\/server\.yaml:2:\d+ server\.graphql\.introspection: /),
    ]);
  });

  it('refuses an empty file (it would mean authentication off), also one of comments only', () => {
    for (const text of ['', '\n\n', '# nothing yet\n', '~\n']) {
      expect(issues(text)).toEqual([
        '/etc/decom/server.yaml:1:1 (root): the file is empty: write server: and authorization: (docs/security.md), or unset DECOM_SERVER_CONFIG to run without a server config',
      ]);
    }
  });

  it('reads server.streams; refuses a per-caller cap above the total, zero and unknown fields, as file:line:column', () => {
    expect(parseServerConfig('server:\n  streams: {max_per_caller: 3, max_total: 40}\n', 'f.yaml').streams).toEqual({
      max_per_caller: 3,
      max_total: 40,
    });
    expect(issues('server:\n  streams:\n    max_per_caller: 50\n    max_total: 40\n')).toEqual([
      '/etc/decom/server.yaml:3:21 server.streams.max_per_caller: must not exceed max_total (40)',
    ]);
    expect(issues('server:\n  streams: {max_total: 0, per_ip: 2}\n')).toEqual([
      '/etc/decom/server.yaml:2:27 server.streams.per_ip: unknown field (expected one of max_per_caller, max_total)',
      expect.stringMatching(/^\/etc\/decom\/server\.yaml:2:\d+ server\.streams\.max_total: /),
    ]);
  });

  it('reports every problem as file:line:column field: message', () => {
    expect(
      issues(
        [
          'server:',
          '  jwt:',
          '    enabled: true',
          '    configs:',
          '      - issuer_url: x',
          '        jwk_cert_url: ftp://x',
          'authorization:',
          '  admins: ["", 3]',
          '  roles: []',
        ].join('\n'),
      ),
    ).toEqual([
      '/etc/decom/server.yaml:6:23 server.jwt.configs[0].jwk_cert_url: must be an http(s) URL, got "ftp://x"',
      '/etc/decom/server.yaml:5:9 server.jwt.configs[0].audience: is required',
      '/etc/decom/server.yaml:9:3 authorization.roles: unknown field (expected one of admins, operators, adapters, deletion_protection, break_glass)',
      '/etc/decom/server.yaml:8:12 authorization.admins[0]: must be an identity: 1..256 printable ASCII characters',
      '/etc/decom/server.yaml:8:16 authorization.admins[1]: must be an identity: 1..256 printable ASCII characters',
    ]);
  });

  it("accepts HyperFleet's jwk_cert_file, jwk_cert_ca_file and header with HyperFleet's meaning", () => {
    const config = parseServerConfig(
      [
        'server:',
        '  jwt:',
        '    enabled: true',
        '    configs:',
        '      - issuer_url: https://kubernetes.default.svc',
        '        jwk_cert_url: https://kubernetes.default.svc/openid/v1/jwks',
        '        jwk_cert_ca_file: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
        '        audience: hyperfleet',
        '        identity_claim: sub',
        '      - issuer_url: https://gateway.example.com',
        '        jwk_cert_file: keys/gateway.json',
        '        header: X-Forwarded-Access-Token',
        '        audience: hyperfleet',
      ].join('\n'),
      '/etc/decom/server.yaml',
    );
    expect(config.jwt.configs[0]).toMatchObject({
      jwk_cert_ca_file: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
      identity_claim: 'sub',
    });
    expect(config.jwt.configs[0]!.header).toBeUndefined();
    expect(config.jwt.configs[1]).toMatchObject({ jwks_file: '/etc/decom/keys/gateway.json', header: 'x-forwarded-access-token' });
    const issuer = (...lines: string[]) =>
      issues(
        [
          'server:',
          '  jwt:',
          '    enabled: true',
          '    configs:',
          '      - issuer_url: https://i.example.com',
          '        audience: a',
          ...lines,
        ].join('\n'),
      );
    expect(issuer('        jwk_cert_file: /k.json', '        jwk_cert_ca_file: /ca.crt')).toEqual([
      '/etc/decom/server.yaml:8:27 server.jwt.configs[0].jwk_cert_ca_file: jwk_cert_ca_file requires jwk_cert_url (it is the CA of that endpoint)',
    ]);
    expect(issuer('        jwk_cert_file: /k.json', '        jwks_file: /k.json')).toEqual([
      '/etc/decom/server.yaml:7:24 server.jwt.configs[0].jwk_cert_file: jwk_cert_file and jwks_file are the same setting: set one',
    ]);
    expect(issuer('        jwk_cert_file: /k.json', '        header: Cookie')).toEqual([
      '/etc/decom/server.yaml:8:17 server.jwt.configs[0].header: "cookie" is not allowed as a token source',
    ]);
    expect(issuer('        jwk_cert_file: /k.json', '        header: X-Token', '        identity_header: x-token')).toEqual([
      '/etc/decom/server.yaml:9:26 server.jwt.configs[0].identity_header: must differ from header "x-token"',
    ]);
    expect(issuer('        jwk_cert_file: /k.json', '        identity_header: Authorization')).toEqual([
      '/etc/decom/server.yaml:8:26 server.jwt.configs[0].identity_header: "Authorization" carries credentials: not allowed as identity_header',
    ]);
    expect(issuer()).toEqual([
      '/etc/decom/server.yaml:5:9 server.jwt.configs[0].jwk_cert_url: set exactly one of jwk_cert_url and jwk_cert_file (jwks_file)',
    ]);
  });

  it('reads server.tenant (HyperFleet §8.1): headers lower-cased, off by default', () => {
    expect(parseServerConfig('server: {}\n', '/f.yaml').tenant).toBeUndefined();
    const config = parseServerConfig(
      [
        'server:',
        '  tenant:',
        '    enabled: true',
        '    system_header: X-HyperFleet-System',
        '    dimensions:',
        '      - { header: X-Org, key: org, required: true }',
        '      - { header: X-Project, key: project }',
        '',
      ].join('\n'),
      '/f.yaml',
    );
    expect(config.tenant).toEqual({
      enabled: true,
      system_header: 'x-hyperfleet-system',
      dimensions: [
        { header: 'x-org', key: 'org', required: true },
        { header: 'x-project', key: 'project', required: false },
      ],
    });
  });

  it('refuses tenants without system_header, dimensions or a required one, and bad or duplicate headers/keys, as file:line:column', () => {
    expect(issues('server:\n  tenant:\n    enabled: true\n')).toEqual([
      '/etc/decom/server.yaml:3:5 server.tenant.system_header: is required',
      '/etc/decom/server.yaml:3:5 server.tenant.dimensions: tenants are enabled but no dimension is configured',
    ]);
    expect(
      issues('server:\n  tenant:\n    enabled: true\n    system_header: X-System\n    dimensions:\n      - { header: X-Org, key: org }\n'),
    ).toEqual(['/etc/decom/server.yaml:6:7 server.tenant.dimensions: at least one dimension must be required: true']);
    expect(
      issues(
        [
          'server:',
          '  tenant:',
          '    enabled: true',
          '    system_header: "X System"',
          '    dimensions:',
          '      - { header: X-Org, key: org, required: true }',
          '      - { header: x-org, key: org }',
          '      - { header: "bad header", key: "a.b" }',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      '/etc/decom/server.yaml:4:20 server.tenant.system_header: not a valid header name: "X System"',
      '/etc/decom/server.yaml:7:19 server.tenant.dimensions[1].header: duplicate header "x-org"',
      '/etc/decom/server.yaml:7:31 server.tenant.dimensions[1].key: duplicate key "org"',
      '/etc/decom/server.yaml:8:19 server.tenant.dimensions[2].header: not a valid header name: "bad header"',
      '/etc/decom/server.yaml:8:38 server.tenant.dimensions[2].key: must match ^[A-Za-z_][A-Za-z0-9_]{0,62}$, got "a.b"',
    ]);
  });

  it('reads server.trusted_proxies (addresses and CIDR ranges), empty by default; refuses anything else', () => {
    expect(parseServerConfig('server: {}\n', '/x.yaml').trusted_proxies).toEqual([]);
    expect(parseServerConfig('server:\n  trusted_proxies: [10.0.0.0/8, 127.0.0.1, "fd00::/8"]\n', '/x.yaml').trusted_proxies).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
    ]);
    expect(issues('server:\n  trusted_proxies: [10.0.0.0/33, gateway, 1.2.3.4/8/1]\n')).toEqual([
      '/etc/decom/server.yaml:2:21 server.trusted_proxies[0]: must be an IP address or CIDR range (e.g. 10.0.0.0/8), got "10.0.0.0/33"',
      '/etc/decom/server.yaml:2:34 server.trusted_proxies[1]: must be an IP address or CIDR range (e.g. 10.0.0.0/8), got "gateway"',
      '/etc/decom/server.yaml:2:43 server.trusted_proxies[2]: must be an IP address or CIDR range (e.g. 10.0.0.0/8), got "1.2.3.4/8/1"',
    ]);
  });

  it('refuses role identities not in canonical form (an e-mail not in lower case): they would never match a caller', () => {
    expect(issues('authorization:\n  admins: [Root@Example.com, ok@example.com]\n')).toEqual([
      '/etc/decom/server.yaml:2:12 authorization.admins[0]: must be in canonical form: e-mail identity is not lower-case (callers with it are refused)',
    ]);
  });

  it('reads system_identities per issuer (default off), only together with identity_header', () => {
    const issuer = (extra: string) =>
      `server:\n  jwt:\n    enabled: true\n    configs:\n      - issuer_url: https://gw\n        jwks_file: k.json\n        audience: decom\n${extra}`;
    expect(parseServerConfig(issuer('        identity_header: X-Id\n'), '/etc/s.yaml').jwt.configs[0]!.system_identities).toBeUndefined();
    expect(
      parseServerConfig(issuer('        identity_header: X-Id\n        system_identities: true\n'), '/etc/s.yaml').jwt.configs[0]!
        .system_identities,
    ).toBe(true);
    expect(issues(issuer('        system_identities: true\n'))).toEqual([
      expect.stringContaining('system_identities: system_identities applies to identity_header'),
    ]);
  });

  it('reads an optional claim per tenant dimension', () => {
    const config = parseServerConfig(
      'server:\n  tenant:\n    enabled: true\n    system_header: X-Sys\n    dimensions:\n      - { header: X-Tenant-Org, key: org, required: true, claim: org }\n      - { header: X-Tenant-Project, key: project }\n',
      '/etc/s.yaml',
    );
    expect(config.tenant!.dimensions).toEqual([
      { header: 'x-tenant-org', key: 'org', required: true, claim: 'org' },
      { header: 'x-tenant-project', key: 'project', required: false },
    ]);
  });

  it('reads authorization.deletion_protection.clear_role (admin by default, or operator); refuses anything else', () => {
    expect(parseServerConfig('authorization:\n  admins: [root@x.test]\n', '/f.yaml').authorization.deletion_protection).toBeUndefined();
    expect(
      parseServerConfig('authorization:\n  deletion_protection:\n    clear_role: operator\n', '/f.yaml').authorization.deletion_protection,
    ).toEqual({ clear_role: 'operator' });
    expect(issues('authorization:\n  deletion_protection:\n    clear_role: reader\n')).toEqual([
      '/etc/decom/server.yaml:3:17 authorization.deletion_protection.clear_role: must be admin or operator, got "reader"',
    ]);
  });

  it('reads authorization.break_glass: approvals 0 (default, off) or 1, expires_after_seconds 3600 by default; needs JWT on', () => {
    const jwt =
      'server:\n  jwt:\n    enabled: true\n    configs:\n      - { issuer_url: https://idp, jwks_file: /k.json, audience: decom }\n';
    expect(parseServerConfig('authorization:\n  admins: [root@x.test]\n', '/f.yaml').authorization.break_glass).toBeUndefined();
    expect(
      parseServerConfig(`${jwt}authorization:\n  break_glass: { approvals: 0 }\n`, '/f.yaml').authorization.break_glass,
    ).toBeUndefined();
    expect(parseServerConfig(`${jwt}authorization:\n  break_glass: { approvals: 1 }\n`, '/f.yaml').authorization.break_glass).toEqual({
      approvals: 1,
      expires_after_seconds: 3600,
    });
    expect(
      parseServerConfig(`${jwt}authorization:\n  break_glass: { approvals: 1, expires_after_seconds: 600 }\n`, '/f.yaml').authorization
        .break_glass,
    ).toEqual({ approvals: 1, expires_after_seconds: 600 });
    const problems = [
      ...issues(`${jwt}authorization:\n  break_glass: { approvals: 2, expires_after_seconds: 5, quorum: 2 }\n`),
      ...issues('authorization:\n  break_glass:\n    approvals: 1\n'),
    ];
    expect(problems.map((p) => p.replace(/^\S+:\d+:\d+ /, ''))).toEqual([
      expect.stringMatching(/^authorization\.break_glass\.quorum: unknown field/),
      expect.stringMatching(/^authorization\.break_glass\.approvals: /),
      expect.stringMatching(/^authorization\.break_glass\.expires_after_seconds: /),
      'authorization.break_glass.approvals: the two-person rule needs verified callers: set server.jwt.enabled: true',
    ]);
    expect(problems.every((p) => /^\/etc\/decom\/server\.yaml:\d+:\d+ /.test(p))).toBe(true);
  });

  it('reads limits.deletions per kind (or *): max_in_flight and/or max_per_hour, whole numbers from 1', () => {
    const config = parseServerConfig(
      'limits:\n  deletions:\n    Cluster: { max_in_flight: 3, max_per_hour: 10 }\n    "*": { max_per_hour: 50 }\n',
      '/f.yaml',
    );
    expect(config.limits).toEqual({ deletions: { Cluster: { max_in_flight: 3, max_per_hour: 10 }, '*': { max_per_hour: 50 } } });
    expect(parseServerConfig('server: {}\n', '/f.yaml').limits).toBeUndefined();
    expect(issues('limits:\n  deletions:\n    Cluster: { max_in_flight: 0, burst: 2 }\n    NodePool: {}\n')).toEqual([
      expect.stringMatching(/limits\.deletions\.Cluster\.burst: unknown field/),
      expect.stringMatching(/limits\.deletions\.Cluster\.max_in_flight: /),
      expect.stringMatching(/limits\.deletions\.NodePool: set max_in_flight and\/or max_per_hour/),
    ]);
  });
});

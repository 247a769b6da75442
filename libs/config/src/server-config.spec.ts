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
    expect(config.jwt).toMatchObject({ enabled: true, anonymous_reads: false, clock_skew_seconds: 30, jwks_refetch_cooldown_seconds: 30 });
    expect(config.jwt.configs[0]).toMatchObject({ issuer_url: 'https://idp.example.com', jwks_file: '/etc/decom/keys/jwks.json', identity_claim: 'email', identity_header: 'x-hyperfleet-identity' });
    expect(config.jwt.configs[0]!.identity_claim_pattern!.test('a@example.com')).toBe(true);
    expect(config.authorization).toEqual({ admins: ['root@example.com'], adapters: { validation: ['system:serviceaccount:hf:validation'] } });
    expect(config.rate_limit).toEqual({ enabled: false, max: 600, time_window_ms: 60_000 });
  });

  it('reports every problem as file:line:column field: message', () => {
    expect(
      issues(['server:', '  jwt:', '    enabled: true', '    configs:', '      - issuer_url: x', '        jwk_cert_url: ftp://x', 'authorization:', '  admins: ["", 3]', '  roles: []'].join('\n')),
    ).toEqual([
      '/etc/decom/server.yaml:6:23 server.jwt.configs[0].jwk_cert_url: must be an http(s) URL, got "ftp://x"',
      '/etc/decom/server.yaml:5:9 server.jwt.configs[0].audience: is required',
      '/etc/decom/server.yaml:9:3 authorization.roles: unknown field (expected one of admins, operators, adapters)',
      '/etc/decom/server.yaml:8:12 authorization.admins[0]: must be an identity: 1..256 printable ASCII characters',
      '/etc/decom/server.yaml:8:16 authorization.admins[1]: must be an identity: 1..256 printable ASCII characters',
    ]);
  });

  it('refuses tenants (not supported yet) instead of pretending to isolate them', () => {
    expect(issues('server:\n  tenant:\n    enabled: true\n    system_header: X-System\n')).toEqual([
      '/etc/decom/server.yaml:3:14 server.tenant.enabled: tenants are not supported by this Decom version yet (docs/security.md)',
    ]);
  });
});

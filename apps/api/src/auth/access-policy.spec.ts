/**
 * The role × action table of docs/security.md, pure (the e2e suite runs it over HTTP with real tokens).
 */
import { AccessPolicy, ACTIONS, type Principal } from './access-policy.js';

const who = (identity: string, issuer: string | null = 'https://idp'): Principal => ({ identity, issuer, subject: null, tenant: null });

describe('AccessPolicy', () => {
  const jwt = new AccessPolicy({
    authorization: { admins: ['root'], operators: ['ops'], adapters: { validation: ['bot'] } },
    authenticated: true,
    embeddedIssuer: 'urn:decom:embedded',
  });
  const allowed = (policy: AccessPolicy, p: Principal) => ACTIONS.filter((a) => policy.can(p, a).allowed);

  it('admins may do everything, operators create/patch/delete, others only read', () => {
    expect(allowed(jwt, who('root'))).toEqual(ACTIONS);
    expect(allowed(jwt, who('ops'))).toEqual(['create', 'delete']);
    expect(jwt.can(who('ops'), 'patch').allowed).toBe(true);
    expect(allowed(jwt, who('viewer'))).toEqual([]);
    expect(jwt.can(who('viewer'), 'read').allowed).toBe(true);
  });

  it('clearing deletion protection is admin-only unless clear_role: operator; abandoning an adapter stays admin-only', () => {
    expect(jwt.can(who('ops'), 'clear_deletion_protection')).toEqual({
      allowed: false,
      reason: "clear deletion protection is restricted to administrators; 'ops' is not one",
    });
    const opsClear = new AccessPolicy({
      authorization: { admins: ['root'], operators: ['ops'], adapters: {}, deletion_protection: { clear_role: 'operator' } },
      authenticated: true,
    });
    expect(allowed(opsClear, who('ops'))).toEqual(['create', 'delete', 'clear_deletion_protection']);
    expect(allowed(opsClear, who('viewer'))).toEqual([]);
  });

  it('without operators, any authenticated non-system caller may create, patch and delete (HyperFleet)', () => {
    const policy = new AccessPolicy({ authorization: { admins: ['root'], adapters: { validation: ['bot'] } }, authenticated: true });
    expect(allowed(policy, who('anyone'))).toEqual(['create', 'delete']);
    expect(allowed(policy, who('bot'))).toEqual([]);
  });

  it('a status report for adapter X only from an identity bound to X; system identities write statuses only', () => {
    expect(jwt.canReport(who('bot'), 'validation').allowed).toBe(true);
    expect(jwt.canReport(who('bot'), 'np-configmap').allowed).toBe(false);
    expect(jwt.canReport(who('root'), 'validation').allowed).toBe(false);
    expect(jwt.canReport(who('mallory'), 'np-configmap')).toMatchObject({
      allowed: false,
      reason: expect.stringContaining("'mallory' is not one"),
    });
    expect(jwt.can(who('bot'), 'create')).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('system identities may only write status'),
    });
    expect(jwt.rolesOf(who('bot'))).toEqual(['adapter', 'reader']);
  });

  it('a grant bound to an issuer matches only a caller that issuer verified; a plain one matches any issuer', () => {
    const policy = new AccessPolicy({
      authorization: {
        admins: [{ issuer: 'https://idp', identity: 'admin@x.test' }, 'root@x.test'],
        operators: [{ issuer: 'https://idp', identity: 'ops@x.test' }],
        adapters: { validation: [{ issuer: 'https://k8s.test', identity: 'system:serviceaccount:hf:validation' }] },
      },
      authenticated: true,
    });
    expect(policy.rolesOf(who('admin@x.test', 'https://idp'))).toEqual(['admin', 'operator', 'reader']);
    // Another issuer's token naming the same subject is nobody special.
    expect(policy.rolesOf(who('admin@x.test', 'https://k8s.test'))).toEqual(['reader']);
    expect(policy.can(who('admin@x.test', 'https://k8s.test'), 'force_delete')).toMatchObject({ allowed: false });
    expect(policy.rolesOf(who('ops@x.test', 'https://k8s.test'))).toEqual(['reader']);
    // Header identities (JWT off: no issuer) never match a bound grant.
    expect(policy.rolesOf(who('admin@x.test', null))).toEqual(['reader']);
    expect(policy.rolesOf(who('root@x.test', 'https://k8s.test'))).toEqual(['admin', 'operator', 'reader']);
    expect(policy.canReport(who('system:serviceaccount:hf:validation', 'https://k8s.test'), 'validation').allowed).toBe(true);
    expect(policy.canReport(who('system:serviceaccount:hf:validation', 'https://idp'), 'validation').allowed).toBe(false);
    // An identity header naming that adapter identity is a system identity whichever issuer it arrives with.
    expect(policy.namesSystemIdentity('system:serviceaccount:hf:validation')).toBe(true);
    expect(policy.namesSystemIdentity('admin@x.test')).toBe(false);
  });

  it('the embedded issuer binds adapter:<name> to <name>, and only that issuer', () => {
    expect(jwt.canReport(who('adapter:np-configmap', 'urn:decom:embedded'), 'np-configmap').allowed).toBe(true);
    expect(jwt.canReport(who('adapter:np-configmap', 'urn:decom:embedded'), 'validation').allowed).toBe(false);
    expect(jwt.canReport(who('adapter:np-configmap', 'https://idp'), 'np-configmap').allowed).toBe(false);
  });

  it('open mode (no JWT, no roles) allows everything; DECOM_ADMINS alone restricts the break-glass actions', () => {
    const open = new AccessPolicy({ authorization: { admins: [], adapters: {} }, authenticated: false });
    expect(open.isOpen).toBe(true);
    expect(allowed(open, who('x', null))).toEqual(ACTIONS);
    expect(open.canReport(who('x', null), 'validation').allowed).toBe(true);
    const admins = new AccessPolicy({ authorization: { admins: ['root'], adapters: {} }, authenticated: false });
    expect(allowed(admins, who('x', null))).toEqual(['create', 'delete']);
    expect(allowed(admins, who('root', null))).toEqual(ACTIONS);
    expect(admins.canReport(who('x', null), 'validation').allowed).toBe(true);
  });
});

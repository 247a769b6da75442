/**
 * The delete guard's 409 messages (seed 004) as a caller of a narrower tenancy reads them:
 * referrers it may not see are counted, never named, as HyperFleet keeps tenants apart.
 */
import { CascadeThroughLiveReference, DependencyCycle, LiveReferrers } from './errors.js';

const user = { id: 'u1', kind: 'NodePool', name: 'user-np' };
const secret = { id: 's1', kind: 'NodePool', name: 'secret-np' };
const shared = { id: 't1', kind: 'NodePool', name: 'shared' };

describe('delete guard errors seen by a scoped caller', () => {
  it('names every referrer to a caller who sees them all', () => {
    const error = new LiveReferrers('NodePool', 't1', [user, secret]).seenBy(() => true);
    expect(error.message).toBe(
      "Cannot delete NodePool 't1': it is referenced by live NodePool 'user-np' (u1), NodePool 'secret-np' (s1); delete the NodePool 'user-np' instead",
    );
  });

  it('counts the hidden ones after the visible ones', () => {
    const error = new LiveReferrers('NodePool', 't1', [user, secret]).seenBy((r) => r.id === 'u1');
    expect(error.message).toBe(
      "Cannot delete NodePool 't1': it is referenced by live NodePool 'user-np' (u1) and 1 more live resource outside your tenant; delete the NodePool 'user-np' instead",
    );
    expect(error.referrers).toEqual([user]);
    expect(error.hidden).toBe(1);
  });

  it('names nobody when none is visible', () => {
    const error = new LiveReferrers('NodePool', 't1', [user, secret]).seenBy(() => false);
    expect(error.message).toBe(
      "Cannot delete NodePool 't1': it is referenced by 2 live resources outside your tenant; their owners must delete them first",
    );
    expect(error.message).not.toMatch(/u1|s1|user-np|secret-np/);
  });

  it('a cascade through a hidden referrer keeps the referenced child but not the referrer', () => {
    const error = new CascadeThroughLiveReference('Cluster', 'c1', [{ referenced: shared, referrer: secret }]).seenBy(() => false);
    expect(error.message).toBe(
      "Cannot delete Cluster 'c1': its subtree holds resources referenced by 1 live resource outside your tenant; their owners must delete them first",
    );
    expect(error.message).not.toMatch(/s1|secret-np/);
  });

  it("a cycle shows a hidden member as outside the tenant, keeping the cycle's shape", () => {
    const error = new DependencyCycle('NodePool', 't1', [shared, secret, shared]).seenBy((m) => m.id !== 's1');
    expect(error.message).toBe(
      "Cannot delete NodePool 't1': dependency cycle NodePool 'shared' (t1) → a resource outside your tenant → NodePool 'shared' (t1); each waits for the next to be gone, so no DELETE can succeed: remove one of these references first",
    );
  });
});

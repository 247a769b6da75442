/**
 * The UI colours a condition by what its status means for its type, not by the literal True/False: a paused
 * or timed-out deletion must never look healthy.
 */
import { ConditionType, MANDATORY_REPORT_CONDITIONS, Reason, adapterConditionType } from '@decom/domain';
import { conditionPolarity, conditionTone } from '../../apps/ui/src/condition-polarity.js';

describe('condition polarity', () => {
  it.each([
    ['Reconciled', 'True', 'good'],
    ['Reconciled', 'False', 'bad'],
    ['Available', 'True', 'good'],
    ['Finalized', 'False', 'bad'],
    ['Health', 'True', 'good'],
    ['Applied', 'True', 'good'],
    ['LastKnownReconciled', 'False', 'bad'],
    ['DeletionTimedOut', 'True', 'bad'],
    ['DeletionTimedOut', 'False', 'good'],
    ['Paused', 'True', 'bad'],
    ['Paused', 'False', 'good'],
    ['DeletionBlocked', 'True', 'bad'],
    ['DeletionBlocked', 'False', 'good'],
    ['DependencyCycle', 'True', 'bad'],
    ['InUse', 'True', 'bad'],
    ['DependentsExist', 'True', 'bad'],
    ['ValidationSuccessful', 'True', 'good'],
    ['NpConfigmapSuccessful', 'False', 'bad'],
    ['ROSAControlPlaneReady', 'True', 'good'],
    ['ClusterHealthy', 'False', 'bad'],
    ['Deleting', 'True', 'neutral'],
    ['GCPQuotaStatus', 'True', 'neutral'],
    ['SomethingNew', 'False', 'neutral'],
    ['Available', 'Unknown', 'neutral'],
    ['Paused', 'Unknown', 'neutral'],
  ])('%s=%s reads %s', (type, status, tone) => {
    expect(conditionTone(type, status)).toBe(tone);
  });

  it('declares a polarity for every condition type the domain emits', () => {
    const emitted = [...Object.values(ConditionType), ...MANDATORY_REPORT_CONDITIONS, adapterConditionType('np-configmap')];
    expect(emitted.filter((type) => conditionPolarity(type) === undefined)).toEqual([]);
  });

  it('treats the abnormal blocker reasons as negative', () => {
    for (const reason of [Reason.DependentsExist, Reason.InUse, Reason.DependencyCycle]) expect(conditionPolarity(reason)).toBe('negative');
  });

  it('does not take a bare suffix for a type', () => {
    expect(conditionPolarity('Successful')).toBeUndefined();
    expect(conditionPolarity('Healthy')).toBeUndefined();
  });
});

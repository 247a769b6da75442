import { ValidationFailed } from '@decom/domain';
import { isDryRun, refuseDryRunOnWrite } from './dry-run.js';

describe('isDryRun: exactly one dryRun=All previews, a near miss is refused, none deletes', () => {
  it.each([
    [{}, false],
    [{ propagationPolicy: 'Foreground' }, false],
    [{ dryRun: 'All' }, true],
    [{ dryRun: 'All', propagationPolicy: 'Background' }, true],
  ])('%j → %s', (query, expected) => {
    expect(isDryRun(query)).toBe(expected);
  });

  it.each([
    [{ dryRun: 'all' }, "dryRun must be 'All', got 'all'"],
    [{ dryRun: '' }, "dryRun must be 'All', got ''"],
    [{ dryrun: 'All' }, 'the parameter is spelled dryRun, not dryrun'],
    [{ DryRun: 'All' }, 'the parameter is spelled dryRun, not DryRun'],
    [{ 'dryRun[]': 'All' }, 'dryRun must be given once'],
    [{ dryRun: ['All', 'All'] }, 'dryRun must be given once'],
    [{ dryRun: 'All', dryrun: 'All' }, 'dryRun must be given once'],
    [{ dry_run: 'true' }, 'the parameter is spelled dryRun, not dry_run'],
    [{ 'dry-run': 'true' }, 'the parameter is spelled dryRun, not dry-run'],
  ])('%j → 400: %s', (query, message) => {
    let thrown: unknown;
    try {
      isDryRun(query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationFailed);
    expect((thrown as ValidationFailed).message).toBe(`${message} (dryRun=All previews the deletion): nothing was deleted`);
    expect((thrown as ValidationFailed).violations[0]).toMatchObject({ field: 'dryRun', constraint: 'enum' });
  });
});

describe('dry-run flags elsewhere', () => {
  it('a DeleteOptions body with dryRun is refused, not ignored (the DELETE would run)', () => {
    expect(() => isDryRun({}, { kind: 'DeleteOptions', dryRun: ['All'] })).toThrow('dryRun is not read in the body; pass ?dryRun=All');
    expect(isDryRun({}, { kind: 'DeleteOptions' })).toBe(false);
  });

  it.each([[{ dryRun: 'All' }], [{ dry_run: 'true' }], [{ 'dry-run': '' }], [{ DRYRUN: 'All' }]])(
    'a write other than DELETE with %j is refused',
    (query) => {
      expect(() => refuseDryRunOnWrite(query)).toThrow(ValidationFailed);
      expect(() => refuseDryRunOnWrite(query)).toThrow(/supported only on DELETE .*nothing was recorded/);
    },
  );

  it('a write without a dry-run flag passes', () => {
    expect(() => refuseDryRunOnWrite({ propagationPolicy: 'Foreground', dryness: 'x' })).not.toThrow();
  });
});

import { ValidationFailed } from '@decom/domain';
import { isDryRun } from './dry-run.js';

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

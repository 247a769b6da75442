import type { ApiCallRecord, ExecutionResult, KubeCallRecord } from '@decom/adapter';
import { ApiHttpError, ApiRouteNotFoundError, ApiTransportError, TransportError } from '@decom/adapter';
import { TerminalError } from '@decom/jobs';
import { classifyError, classifyExecution } from './adapter-failure.js';

const result = (
  status: 'success' | 'failed',
  errorReason: string,
  apiCalls: ApiCallRecord[] = [],
  kubeCalls: KubeCallRecord[] = [],
): ExecutionResult =>
  ({
    status,
    adapter: {
      name: 'validation',
      executionStatus: status,
      resourcesSkipped: false,
      skipReason: '',
      errorReason,
      errorMessage: errorReason ? `${errorReason}: details` : '',
      resourceErrors: {},
    },
    phases: [],
    operations: [],
    celResults: [],
    apiCalls,
    kubeCalls,
    statusReports: [],
    payloads: {},
    logs: [],
  }) as unknown as ExecutionResult;
const get = (status?: number, error?: string, attempts?: number): ApiCallRecord => ({
  method: 'GET',
  url: 'http://api/clusters/c1',
  ...(status ? { status } : {}),
  ...(error ? { error } : {}),
  ...(attempts ? { attempts } : {}),
});
const kube = (outcome: string): KubeCallRecord => ({ verb: 'delete', kind: 'Namespace', name: 'c1', outcome });

describe('adapter error taxonomy: executions', () => {
  it('a successful run is no failure', () => {
    expect(classifyExecution(result('success', '', [get(200)], [kube('ok')]))).toBeUndefined();
  });

  it.each([
    ['the API did not answer (connection refused)', [get(undefined, 'connect ECONNREFUSED', 3)], []],
    ['the API answered 503', [get(503, 'HTTP 503', 3)], []],
    ['the API answered 429', [get(429, 'HTTP 429', 3)], []],
    ['the API answered 409 (conflict)', [get(409, 'HTTP 409', 1)], []],
    ['Kubernetes unreachable', [get(200)], [kube('ConnectionFailure')]],
    ['Kubernetes 500 InternalError', [get(200)], [kube('InternalError')]],
    ['Kubernetes Conflict on delete', [get(200)], [kube('Conflict')]],
    ['Kubernetes answered a bare 503', [get(200)], [kube('HTTP503')]],
    ['Kubernetes 404: the namespace another adapter creates is not there yet', [get(200)], [kube('NotFound')]],
    ['the API answered 404 for a resource (not NTF-000)', [get(404, 'HTTP 404 HYPERFLEET-NTF-001 not found', 1)], []],
  ])('transient: %s', (_what, api, k) => {
    expect(classifyExecution(result('failed', 'ResourceFailed', api, k))).toMatchObject({ kind: 'transient' });
  });

  it.each([
    ['a CEL error in the config (no call failed)', 'ResourceFailed', [get(200)], []],
    ['a required param could not be extracted', 'ParameterExtractionFailed', [], []],
    [
      'HyperFleet NTF-000: a wrong url in the config',
      'ParameterExtractionFailed',
      [get(404, 'HTTP 404 (no such endpoint: check the url)', 1)],
      [],
    ],
    ['the API refused with 403', 'PreconditionFailed', [get(403, 'HTTP 403', 1)], []],
    ['the API refused with 400', 'PostActionFailed', [get(400, 'HTTP 400', 1)], []],
    ['Kubernetes Forbidden (RBAC)', 'ResourceFailed', [get(200)], [kube('Forbidden')]],
    ['Kubernetes Invalid manifest', 'ResourceFailed', [get(200)], [kube('Invalid')]],
    ['a template failed before any request was sent', 'PostActionFailed', [get(undefined, 'template: missing key')], []],
  ])('terminal: %s', (_what, reason, api, k) => {
    expect(classifyExecution(result('failed', reason, api, k))).toEqual({ kind: 'terminal', reason, message: `${reason}: details` });
  });

  it('names Kubernetes unreachable only when its API server gave no answer (not via Maestro, not a 5xx)', () => {
    const unreachable = (k: KubeCallRecord[]) => classifyExecution(result('failed', 'ResourceFailed', [get(200)], k))?.unreachable;
    expect(unreachable([kube('ConnectionFailure')])).toBe('kubernetes');
    expect(unreachable([kube('Timeout')])).toBe('kubernetes');
    expect(unreachable([kube('ServiceUnavailable'), kube('ConnectionFailure')])).toBe('kubernetes');
    expect(unreachable([kube('ServiceUnavailable')])).toBeUndefined();
    expect(unreachable([kube('HTTP503')])).toBeUndefined();
    expect(unreachable([{ ...kube('ConnectionFailure'), via: 'maestro:cluster-1' }])).toBeUndefined();
    expect(
      classifyExecution(result('failed', 'ResourceFailed', [get(undefined, 'connect ECONNREFUSED', 3)], []))?.unreachable,
    ).toBeUndefined();
    expect(classifyError(new TransportError('ConnectionFailure', 'connect ECONNREFUSED', undefined)).unreachable).toBe('kubernetes');
    expect(classifyError(new TransportError('ServiceUnavailable', 'down', 503)).unreachable).toBeUndefined();
  });

  it('transient wins when a run shows both (a retry may get past the outage)', () => {
    expect(classifyExecution(result('failed', 'ResourceFailed', [get(403, 'HTTP 403', 1)], [kube('ServiceUnavailable')]))?.kind).toBe(
      'transient',
    );
  });
});

describe('adapter error taxonomy: thrown errors', () => {
  it.each([
    [new ApiTransportError('GET', 'u', undefined, undefined, 3, 'ECONNRESET'), 'transient'],
    [new ApiHttpError('GET', 'u', 502, undefined, 3, 'bad gateway'), 'transient'],
    [new ApiHttpError('PUT', 'u', 409, undefined, 1, 'conflict'), 'transient'],
    [new ApiHttpError('PUT', 'u', 422, undefined, 1, 'unprocessable'), 'terminal'],
    [new ApiRouteNotFoundError('GET', 'u', 404, undefined, 1, 'no route'), 'terminal'],
    [new TransportError('ServiceUnavailable', 'down', 503), 'transient'],
    [new TransportError('Forbidden', 'rbac', 403), 'terminal'],
    [new TerminalError('bad config'), 'terminal'],
    [new Error('something unexpected'), 'transient'],
  ])('%s → %s', (error, kind) => {
    expect(classifyError(error).kind).toBe(kind);
  });
});

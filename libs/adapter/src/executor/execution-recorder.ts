import type {
  ApiCallRecord,
  CelResult,
  ConditionOverride,
  PolicyOutcome,
  KubeCallRecord,
  LogRecord,
  PhaseTrace,
  ResourceOperation,
} from './execution-result.js';

/**
 * Collects the trace of one execution: every CEL result, HTTP and Kubernetes call, resource
 * operation and status report, in order. The CLI dry run prints it; tests assert on it.
 */
export class ExecutionRecorder {
  readonly celResults: CelResult[] = [];
  readonly apiCalls: ApiCallRecord[] = [];
  readonly kubeCalls: KubeCallRecord[] = [];
  readonly operations: ResourceOperation[] = [];
  readonly phases: PhaseTrace[] = [];
  readonly statusReports: unknown[] = [];
  readonly payloads: Record<string, unknown> = {};
  readonly logs: LogRecord[] = [];
  readonly policyOutcomes: PolicyOutcome[] = [];
  readonly overrides: ConditionOverride[] = [];

  cel(result: CelResult): void {
    this.celResults.push(result);
  }

  apiCall(record: ApiCallRecord): void {
    this.apiCalls.push(record);
  }

  kubeCall(record: KubeCallRecord): void {
    this.kubeCalls.push(record);
  }

  operation(operation: ResourceOperation): void {
    this.operations.push(operation);
  }

  phase(trace: PhaseTrace): void {
    this.phases.push(trace);
  }

  log(record: LogRecord): void {
    this.logs.push(record);
  }

  policyOutcome(outcome: PolicyOutcome): void {
    this.policyOutcomes.push(outcome);
  }
}

/**
 * The task config most executor and worker tests share, as YAML: the event's `clusterId`, a `cluster`
 * precondition reading the cluster (capturing its `generation`), the test's own `resources`, and one status
 * report (`adapter`, `observed_generation`, the test's `conditions`) PUT to the cluster's statuses.
 */
export interface ReportingTaskConfig {
  /** YAML items of `resources:`, indented by 2 (`  - name: cm`). */
  readonly resources: string;
  /** YAML items of the report's `conditions:`, indented by 10; none: the report has no conditions. */
  readonly conditions?: string;
  /** More YAML items of the precondition's `capture:`, indented by 6 (after `generation`). */
  readonly captures?: string;
}

/**
 * The `params:` and `preconditions:` of a task config about a cluster: `clusterId` from the event, and the
 * `cluster` read capturing its `generation` and `captures` (YAML items indented by 6).
 */
export function clusterPrelude(captures = ''): string {
  return `
params:
  - {name: clusterId, source: event.id, required: true}
preconditions:
  - name: cluster
    api_call: {method: GET, url: '/clusters/{{ .clusterId }}'}
    capture:
      - {name: generation, field: generation}
${captures}`;
}

export function reportingTaskConfig({ resources, conditions, captures }: ReportingTaskConfig): string {
  return `${clusterPrelude(captures)}
resources:
${resources}
post:
  payloads:
    - name: report
      build:
        adapter: '{{ .adapter.name }}'
        observed_generation: {expression: generation}
${conditions ? `        conditions:\n${conditions}` : ''}
  post_actions:
    - name: put
      api_call: {method: PUT, url: '/clusters/{{ .clusterId }}/statuses', body: '{{ .report }}'}
`;
}

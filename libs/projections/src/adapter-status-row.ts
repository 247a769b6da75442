/**
 * An `adapter_statuses` row back into the domain's `AdapterStatus` (JSON columns parsed; absent metadata and
 * data stay absent, so a stored report reads back exactly as it was accepted).
 */
import type { AdapterStatus } from '@decom/domain';
import type { AdapterStatusRow } from './resource-view.schema.js';

export function toAdapterStatus(row: AdapterStatusRow): AdapterStatus {
  return {
    adapter: row.adapter,
    observed_generation: Number(row.observed_generation),
    conditions: JSON.parse(row.conditions),
    ...(row.metadata !== null ? { metadata: JSON.parse(row.metadata) } : {}),
    ...(row.data !== null ? { data: JSON.parse(row.data) } : {}),
    created_time: row.created_time,
    last_report_time: row.last_report_time,
  };
}

/**
 * The `X-Decom-Fence` header of an adapter status report: `<generation>.<sequence>`,
 * sent by Decom's worker on every call of a run (libs/adapter run-fence.ts). Absent for any other adapter.
 */
import type { FastifyRequest } from 'fastify';
import { ValidationFailed, type ReportFence } from '@decom/domain';

export const FENCE_HEADER = 'x-decom-fence';

/** @throws ValidationFailed (400) for a header that is present but not `<generation>.<sequence>`. */
export function reportFence(req: FastifyRequest): ReportFence | undefined {
  const raw = req.headers[FENCE_HEADER];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  const match = /^(\d+)\.(\d+)$/.exec(value ?? '');
  const generation = match ? Number(match[1]) : NaN;
  const sequence = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(generation) || generation < 1 || !Number.isSafeInteger(sequence)) {
    const message = 'X-Decom-Fence must be <generation>.<sequence> (two integers, generation >= 1)';
    throw new ValidationFailed(message, [{ field: 'X-Decom-Fence', value, constraint: 'format', message }]);
  }
  return { generation, sequence };
}

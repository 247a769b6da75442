/** `125` → `2m 05s`; `7300` → `2h 01m`; `90000` → `1d 1h`. */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

/** RFC 3339 → `2026-12-01 10:00:05 UTC` (UTC, like the API, so times compare with logs). */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function hashLink(path: string): string {
  return `#${path}`;
}

/** A moment (ms since the epoch) as `06:40:55 UTC`: the time of day an outage began or data was read, in UTC like `formatTime`. */
export function formatClock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

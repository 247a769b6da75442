/**
 * Summarises a V8 `.cpuprofile` (what `node --cpu-prof` writes at exit): self time per function, summed
 * over every node of the call tree with the same function, file and line, largest first. `(idle)` is left
 * out (the process waiting is not where time goes); `(garbage collector)` and `(program)` stay.
 */
import { basename } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

export interface SelfTimeRow {
  /** `functionName (file:line)`, the file shortened to its last two path segments. */
  readonly name: string;
  readonly selfMs: number;
  /** Share of the non-idle sampled time, 0..1. */
  readonly share: number;
}

/** The `limit` functions with the most self time. Times from the sample deltas (µs in the profile). */
export function topSelfTime(profile: CpuProfile, limit = 10): SelfTimeRow[] {
  const byNode = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busyUs = 0;
  for (let i = 0; i < samples.length; i++) {
    // A sample's delta is the time since the previous one: charge it to the function now on top.
    const node = byNode.get(samples[i]!);
    const us = deltas[i + 1] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url
      ? url
          .replace(/^file:\/\//, '')
          .split('/')
          .slice(-2)
          .join('/')
      : '';
    const key = `${functionName || '(anonymous)'}${file ? ` (${file || basename(url)}:${lineNumber + 1})` : ''}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + us);
    busyUs += us;
  }
  return [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => ({ name, selfMs: us / 1000, share: busyUs > 0 ? us / busyUs : 0 }));
}

/** Markdown lines: `- 23.1 % 1,234 ms fn (file:line)`. */
export function formatProfile(label: string, rows: readonly SelfTimeRow[]): string[] {
  if (rows.length === 0) return [`- ${label}: no profile written`];
  return [
    `- ${label}, top ${rows.length} self-time functions (\`node --cpu-prof\`, whole process life, idle excluded):`,
    ...rows.map(
      (r) => `  - ${(r.share * 100).toFixed(1)} % · ${Math.round(r.selfMs).toLocaleString('en-US')} ms · \`${r.name.replace(/`/g, "'")}\``,
    ),
  ];
}

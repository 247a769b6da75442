import { BLOCKER_LABELS } from './BlockerBadge';

/**
 * Counts of deletions per blocker type as a small horizontal bar chart (SVG), with the numbers as text.
 * `unknown`: why the counts may be incomplete (the list is stale, or dead-letter blockers could not be read);
 * then an empty chart says so instead of "No blockers.", and a drawn one carries it as a note.
 */
export function BlockerChart({ counts, unknown }: { counts: Record<string, number>; unknown?: string }) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0)
    return unknown ? (
      <p className="unknown" data-field="blockers-unknown">
        Blockers unknown: {unknown}.
      </p>
    ) : (
      <p className="muted">No blockers.</p>
    );
  const max = Math.max(...entries.map(([, n]) => n));
  const row = 22;
  return (
    <figure className="chart" aria-labelledby="chart-caption">
      <figcaption id="chart-caption">Deletions per blocker type</figcaption>
      <svg
        width="360"
        height={entries.length * row}
        role="img"
        aria-label={entries.map(([t, n]) => `${BLOCKER_LABELS[t] ?? t}: ${n}`).join(', ')}
      >
        {entries.map(([type, n], i) => (
          <g key={type} transform={`translate(0, ${i * row})`}>
            <text x="0" y="15" className="chart-label">
              {BLOCKER_LABELS[type] ?? type}
            </text>
            <rect x="150" y="4" height="14" width={Math.max(2, (n / max) * 170)} className={`bar bar-${type}`} />
            <text x={156 + (n / max) * 170} y="15" className="chart-value">
              {n}
            </text>
          </g>
        ))}
      </svg>
      {unknown ? (
        <p className="unknown" data-field="blockers-unknown">
          Possibly incomplete: {unknown}.
        </p>
      ) : null}
    </figure>
  );
}

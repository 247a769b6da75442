import type { OutageNotice } from '../outage';

/**
 * The outage banner above every page: what the UI cannot vouch for right now (engine unreachable, job queue
 * unreachable, live updates disconnected), each notice with the time it began. Nothing is rendered while
 * everything is known, so its presence alone tells the operator that what the page shows is not all clear.
 */
export function OutageBanner({ notices }: { notices: readonly OutageNotice[] }) {
  if (notices.length === 0) return null;
  return (
    <div className="outage" role="alert" aria-labelledby="outage-title">
      <strong id="outage-title" className="outage-title">
        Not all clear: what this page shows may be out of date or incomplete
      </strong>
      <ul>
        {notices.map((n) => (
          <li key={n.kind} data-notice={n.kind}>
            {n.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

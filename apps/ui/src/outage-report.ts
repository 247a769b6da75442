/**
 * How a page hands its outage notices to the layout, which shows them in one banner above every page. The
 * layout provides `report`; a page calls `useOutageReport(notices)` and its notices leave with it.
 */
import { createContext, useContext, useEffect } from 'react';
import type { OutageNotice } from './outage';

export const OutageReportContext = createContext<(notices: readonly OutageNotice[]) => void>(() => undefined);

/** Reports `notices` whenever their text changes, and none once the page unmounts. */
export function useOutageReport(notices: readonly OutageNotice[]): void {
  const report = useContext(OutageReportContext);
  const key = notices.map((n) => `${n.kind}:${n.text}`).join('\n');
  // Keyed by the text, not the array: a page re-renders every second, the notices change far less often.
  useEffect(() => report(notices), [report, key]);
  useEffect(() => () => report([]), [report]);
}

/** Whether two notice lists say the same, so the layout can keep its state (and skip a render) when nothing changed. */
export function sameNotices(a: readonly OutageNotice[], b: readonly OutageNotice[]): boolean {
  return a.length === b.length && a.every((n, i) => n.kind === b[i]!.kind && n.text === b[i]!.text);
}

import type { Condition } from '../api';
import { conditionTone } from '../condition-polarity';
import { formatTime } from '../format';

/** Conditions as a table; the status is coloured by what it means for its type (`condition-polarity.ts`), not by True/False. */
export function ConditionsTable({ conditions, caption }: { conditions: Condition[]; caption: string }) {
  return (
    <table className="conditions">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col">Reason</th>
          <th scope="col">Message</th>
          <th scope="col">Since</th>
        </tr>
      </thead>
      <tbody>
        {conditions.map((c) => (
          <tr key={c.type}>
            <td>{c.type}</td>
            <td className={`status tone-${conditionTone(c.type, c.status)}`} data-tone={conditionTone(c.type, c.status)}>
              {c.status}
            </td>
            <td>{c.reason ?? ''}</td>
            <td>{c.message ?? ''}</td>
            <td>{formatTime(c.last_transition_time)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

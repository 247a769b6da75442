import { ApiError, EngineUnreachable } from '../api';

/** An API error as its problem details' title and detail (or a plain message for a network failure). */
export function ProblemView({ error }: { error: unknown }) {
  if (!error) return null;
  const title =
    error instanceof ApiError ? error.problem.title : error instanceof EngineUnreachable ? 'Engine unreachable' : 'Request failed';
  const detail = error instanceof ApiError ? error.problem.detail : String((error as Error).message ?? error);
  const status = error instanceof ApiError ? ` (${error.problem.status})` : '';
  return (
    <div className="problem" role="alert">
      <strong className="problem-title">
        {title}
        {status}
      </strong>
      <span className="problem-detail">{detail}</span>
    </div>
  );
}

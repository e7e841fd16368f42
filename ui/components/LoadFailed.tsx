/**
 * "Could not load" with Retry (issue 25): every list, search and picker shows this when its
 * request fails, distinct from its "none" text, and keeps showing what it had before.
 */
export function LoadFailed({ what, error, onRetry }: { what: string; error: string | null | undefined; onRetry: () => void }) {
  if (!error) return null;
  return (
    <div className="load-failed" role="alert" data-testid="load-failed">
      <span>
        <strong>Could not load {what}.</strong> <span className="muted">{error}</span>
      </span>
      <button type="button" className="btn" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

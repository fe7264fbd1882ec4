/**
 * An error as the admin should see it: its class, what happened in plain
 * words, and what to do. A new error is announced (role="alert"); an old
 * one redrawn on a later visit is only shown (role="status").
 */
import type { AppErrorValue, ErrorKind } from '../../../../shared/errors';

export const errorKindLabel: Record<ErrorKind, string> = {
  permanent: 'Permanent',
  transient: 'Transient',
  'not-found': 'Not found',
  'invalid-input': 'Invalid input',
};

/** What each class means for the admin, shown as the badge's tooltip. */
const kindMeaning: Record<ErrorKind, string> = {
  permanent: 'Retrying will fail the same way until something is changed.',
  transient: 'Retrying later may work.',
  'not-found': 'The thing asked about does not exist (any more).',
  'invalid-input': 'The request was refused before anything was attempted.',
};

export interface ErrorNoticeProps {
  error: AppErrorValue;
  /** What was being done, e.g. "Loading clusters failed". */
  title?: string;
  /** False for an error already announced once. */
  announce?: boolean;
  onRetry?: () => void;
  onDismiss?: () => void;
}

export function ErrorNotice({ error, title, announce = true, onRetry, onDismiss }: ErrorNoticeProps) {
  return (
    <div role={announce ? 'alert' : 'status'} className={`error-notice error-${error.kind}`}>
      <div className="error-head">
        <span className="kind-badge" title={kindMeaning[error.kind]}>
          {errorKindLabel[error.kind]}
        </span>
        {title && <strong>{title}</strong>}
      </div>
      <p className="error-message">
        {error.message}
        {error.field && <span className="error-field"> (field: {error.field})</span>}
      </p>
      {error.hint && <p className="error-hint">What to do: {error.hint}</p>}
      {(onRetry || onDismiss) && (
        <div className="error-actions">
          {onRetry && (
            <button type="button" onClick={onRetry}>
              Try again
            </button>
          )}
          {onDismiss && (
            <button type="button" onClick={onDismiss}>
              Dismiss
            </button>
          )}
        </div>
      )}
    </div>
  );
}

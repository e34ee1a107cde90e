import type { ReactNode } from 'react';

/** A centered spinner with a label for assistive technology. */
export function LoadingState({
  label = 'Loading…',
  compact = false,
}: {
  label?: string;
  compact?: boolean;
}) {
  return (
    <div
      className={`state state--loading${compact ? ' state--compact' : ''}`}
      role="status"
      aria-live="polite"
    >
      <span className="spinner" aria-hidden="true" />
      <span className="state__text">{label}</span>
    </div>
  );
}

/** Nothing to show yet, said plainly, with an optional action. */
export function EmptyState({
  title,
  children,
  compact = false,
}: {
  title: string;
  children?: ReactNode;
  compact?: boolean;
}) {
  return (
    <div className={`state state--empty${compact ? ' state--compact' : ''}`}>
      <p className="state__title">{title}</p>
      {children && <div className="state__text">{children}</div>}
    </div>
  );
}

/** Something failed: the message and, when it can be retried, a retry button. */
export function ErrorState({
  title = 'This didn’t load',
  message,
  onRetry,
  compact = false,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  compact?: boolean;
}) {
  return (
    <div className={`state state--error${compact ? ' state--compact' : ''}`} role="alert">
      <p className="state__title">{title}</p>
      <p className="state__text">{message}</p>
      {onRetry && (
        <button type="button" className="btn btn--secondary btn--sm" onClick={onRetry}>
          <span className="btn__label">Try again</span>
        </button>
      )}
    </div>
  );
}

/** The message of a failed action above a list, or nothing. */
export function ErrorAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert--error" role="alert">
      {message}
    </div>
  );
}

import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * A labelled input with an inline error message tied to it for screen readers. With
 * `reserveMessage` the message's line is always there (empty until there is one), so a message
 * appearing moves nothing below it.
 */
export function TextField({
  label,
  error,
  hint,
  className,
  reserveMessage = false,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  reserveMessage?: boolean;
}) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...rest}
      />
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : reserveMessage ? (
        <p className="field__error" aria-hidden="true" />
      ) : null}
    </div>
  );
}

import type { ButtonHTMLAttributes, Ref } from 'react';

/** Visual weight of a {@link Button}. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

/** A button; `busy` disables it and shows a spinner while keeping its width. */
export function Button({
  variant = 'secondary',
  busy = false,
  size = 'md',
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>;
  variant?: ButtonVariant;
  busy?: boolean;
  size?: 'sm' | 'md';
}) {
  return (
    <button
      type={type}
      className={`btn btn--${variant} btn--${size}${busy ? ' is-busy' : ''}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      <span className="btn__label">{children}</span>
      {busy && <span className="spinner spinner--inline" aria-hidden="true" />}
    </button>
  );
}

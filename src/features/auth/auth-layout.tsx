import type { ReactNode } from 'react';

/** The frame of the sign-in screens: brand, a card, a footer line. */
export function AuthLayout({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="auth">
      <div className="auth__brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Livedesk</span>
      </div>
      <section className="auth__card" aria-labelledby="auth-title">
        <h1 id="auth-title" className="auth__title">
          {title}
        </h1>
        {children}
      </section>
      {footer && <p className="auth__footer">{footer}</p>}
    </main>
  );
}

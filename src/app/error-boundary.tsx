import { Component, type ErrorInfo, type ReactNode } from 'react';
import { newReference } from '../../store/index.ts';

/** Catches render errors below it and shows "Something went wrong (ref …)" with a reload. */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: string },
  { reference: string | null; resetKey?: string }
> {
  override state: { reference: string | null; resetKey?: string } = { reference: null };

  static getDerivedStateFromError(): { reference: string } {
    return { reference: newReference() };
  }

  static getDerivedStateFromProps(
    props: { resetKey?: string },
    state: { reference: string | null; resetKey?: string },
  ) {
    if (props.resetKey !== state.resetKey) return { reference: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`[livedesk] error ref ${this.state.reference}:`, error, info.componentStack);
  }

  override render() {
    if (this.state.reference === null) return this.props.children;
    return (
      <div className="state state--error state--page" role="alert">
        <p className="state__title">Something went wrong (ref {this.state.reference}).</p>
        <p className="state__text">The rest of the desk keeps working. Reload to try again.</p>
        <button
          type="button"
          className="btn btn--primary btn--md"
          onClick={() => location.reload()}
        >
          <span className="btn__label">Reload</span>
        </button>
      </div>
    );
  }
}

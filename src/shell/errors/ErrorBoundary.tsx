import { Component, type ErrorInfo, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { FullPageError } from './FullPageError';

/** Props of the boundary. */
export interface ErrorBoundaryProps {
  children: ReactNode;
  /** `page` shows the full-page error screen (reload); `section` the generic 'Oops!' fallback. */
  variant?: 'page' | 'section';
  /** Receives the failure for reporting; never throws back. */
  onError?: (error: Error, info: ErrorInfo) => void;
}

/** Switches to a fallback when rendering below it throws (including a lazy chunk that fails to load). */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    try {
      this.props.onError?.(error, info);
    } catch {
      // reporting must never break the fallback
    }
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.variant === 'page') return <FullPageError />;
    return (
      <div role="alert" style={{ padding: '48px 24px', textAlign: 'center', fontSize: 16 }}>
        <FormattedMessage id="shell.error.boundary" />
      </div>
    );
  }
}

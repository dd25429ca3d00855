import { Component, type ReactNode } from 'react';
import { he } from '../i18n/he';

/**
 * Catches a page that fails to render or whose lazy chunk fails to load (typically after the
 * server was upgraded and old hashed assets are gone) and offers a reload instead of a blank screen.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="empty-state" role="alert">
        <p className="empty-state__text">{he.app.pageLoadFailed}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {he.app.reload}
        </button>
      </div>
    );
  }
}

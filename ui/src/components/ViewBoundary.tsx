// Catches a crash inside one view so the rest of the app (navigation, a run in progress)
// keeps working; shows what happened and offers to try again.
import { Component } from "react";
import type { ErrorInfo, ReactNode } from "react";

interface Props {
  /** Changing it (e.g. switching views) clears the error. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
  key: string;
}

export class ViewBoundary extends Component<Props, State> {
  state: State = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error("A view crashed:", error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="notice notice-error view-crash" role="alert" data-testid="view-error">
        <p>
          <strong>This view ran into a problem.</strong> Your novel is safe; nothing was changed.
        </p>
        <p className="small">{this.state.error.message}</p>
        <button type="button" className="btn btn-quiet" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}

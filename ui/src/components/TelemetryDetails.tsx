// The engineer's numbers (tokens, model calls, timings, tool calls) folded behind "Details", so
// a scene or a tick reads as prose, title and findings first. Native <details>: keyboard and
// screen readers get a disclosure for free, and nothing is fetched when it opens.
import type { ReactNode } from "react";
import "../styles/telemetry.css";

interface Props {
  children: ReactNode;
  testId?: string;
}

export function TelemetryDetails({ children, testId = "telemetry" }: Props) {
  return (
    <details className="telemetry" data-testid={testId}>
      <summary data-testid={`${testId}-toggle`}>Details</summary>
      <div className="telemetry-body">{children}</div>
    </details>
  );
}

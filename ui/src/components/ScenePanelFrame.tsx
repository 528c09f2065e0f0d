// The frame of a panel that opens under a scene's heading (versions, checks, the scene across
// branches): a labelled section with its title and a close button.
import type { ReactNode } from "react";
import { Icon } from "./Icon";

interface Props {
  /** Extra class for the panel's own layout. */
  className: string;
  testId: string;
  title: string;
  /** The close button's accessible name ("Close the versions"). */
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}

export function ScenePanelFrame({ className, testId, title, closeLabel, onClose, children }: Props) {
  return (
    <section className={`scene-panel ${className}`} data-testid={testId} aria-label={title}>
      <div className="panel-head">
        <h3>{title}</h3>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={closeLabel}>
          <Icon name="close" />
        </button>
      </div>
      {children}
    </section>
  );
}

// The left navigation rail: one button per view, with its shortcut in the tooltip and a
// pulse on Write while a run is in progress.
import { VIEWS, viewShortcut } from "../lib/views";
import type { ViewId } from "../lib/views";
import { Icon } from "./Icon";
import "../styles/shell.css";

interface Props {
  current: ViewId;
  hasNovel: boolean;
  running: boolean;
  onSelect: (id: ViewId) => void;
}

export function NavRail({ current, hasNovel, running, onSelect }: Props) {
  return (
    <nav className="nav-rail" aria-label="Views">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">N</span>
      </div>
      {VIEWS.map((v) => (
        <button
          key={v.id}
          type="button"
          className={`nav-item${current === v.id ? " active" : ""}${v.needsNovel && !hasNovel ? " dim" : ""}`}
          data-testid={`nav-${v.id}`}
          aria-current={current === v.id ? "page" : undefined}
          title={`${v.label} (${viewShortcut(v.id)})`}
          onClick={() => onSelect(v.id)}
        >
          <Icon name={v.id} size={20} />
          <span className="nav-label">{v.label}</span>
          {v.id === "write" && running && <span className="nav-pulse" aria-label="writing" />}
        </button>
      ))}
    </nav>
  );
}

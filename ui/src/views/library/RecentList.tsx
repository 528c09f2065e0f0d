// Recently opened novels: open one with a click; a missing folder is marked and can be
// removed from the list.
import { baseName } from "../../lib/format";
import type { RecentNovel } from "../../lib/types";
import { Icon } from "../../components/Icon";

interface Props {
  recent: RecentNovel[];
  currentPath: string | null;
  busyPath: string | null;
  onOpen: (path: string) => void;
  onForget: (path: string) => void;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

export function RecentList({ recent, currentPath, busyPath, onOpen, onForget }: Props) {
  return (
    <ul className="recent-list">
      {recent.map((r) => (
        <li key={r.path} className={`recent${r.missing ? " missing" : ""}${r.path === currentPath ? " current" : ""}`}>
          <button
            type="button"
            className="recent-open"
            data-testid="recent-item"
            data-missing={r.missing ? "true" : "false"}
            disabled={r.missing || busyPath !== null}
            onClick={() => onOpen(r.path)}
            title={r.missing ? `${r.path} is missing` : `Open ${r.path}`}
          >
            <span className="recent-title">{r.title || baseName(r.path)}</span>
            <span className="recent-path">{r.path}</span>
            <span className="recent-meta">
              {r.missing ? (
                <span className="badge badge-warning">Folder missing</span>
              ) : r.path === currentPath ? (
                <span className="badge badge-accent">Open</span>
              ) : busyPath === r.path ? (
                "Opening…"
              ) : (
                when(r.opened_at)
              )}
            </span>
          </button>
          {r.missing && (
            <button
              type="button"
              className="icon-btn"
              data-testid="forget-recent"
              aria-label={`Remove ${r.title} from the list`}
              title="Remove from the list"
              onClick={() => onForget(r.path)}
            >
              <Icon name="close" />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

// The branches panel (from Branch in the header): every branch with where it ends, the
// current one marked; switch, rename, delete (asked first; its scenes stay as versions), a new
// branch from the latest scene, and one scene compared across two branches side by side.
// Moves are not offered while a scene is being written (the shell would refuse them).
import { useEffect, useRef, useState } from "react";
import { commands } from "../../bindings";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Icon } from "../../components/Icon";
import { LoadError } from "../../components/LoadError";
import { call, errorText } from "../../lib/api";
import { useFocusTrap } from "../../lib/focusTrap";
import { shortTime } from "../../lib/history";
import { useNovel } from "../../lib/novel";
import { useToast } from "../../lib/toast";
import type { Branch } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { BranchCompare } from "./BranchCompare";
import { NewBranchDialog } from "./NewBranchDialog";

interface Props {
  running: boolean;
  onClose: () => void;
}

export function BranchesPanel({ running, onClose }: Props) {
  const { overview, version } = useNovel();
  const notify = useToast();
  const branches = useLoad(`branches:${overview?.path}:${version}`, () => call(commands.branches()));
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Branch | null>(null);
  const [creating, setCreating] = useState(false);
  const [compareAt, setCompareAt] = useState<number | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => closeButton.current?.focus(), []);
  const trapKeys = useFocusTrap(dialog, !deleting && !creating && renaming === null ? onClose : undefined);
  const latest = overview?.current_tick ?? 0;
  const list = branches.data ?? [];

  const switchTo = async (b: Branch) => {
    setBusy(b.name);
    setError(null);
    try {
      await call(commands.switchBranch(b.name));
      notify(`You are on the branch “${b.name}” (${b.tick === 0 ? "no scenes yet" : `up to scene ${b.tick}`}).`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (b: Branch) => {
    await call(commands.deleteBranch(b.name));
    setDeleting(null);
    notify(`The branch “${b.name}” is deleted. Its scenes are kept as versions.`);
  };

  return (
    <div className="overlay" role="presentation" onClick={() => !deleting && !creating && onClose()}>
      <div
        ref={dialog}
        className="dialog branches-panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="branches-title"
        data-testid="branches-panel"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={trapKeys}
      >
        <div className="dialog-head">
          <h2 id="branches-title">
            <Icon name="branch" /> Branches
          </h2>
          <button ref={closeButton} type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        <p className="muted small">
          Each branch is one way the story goes. Every view shows the branch you are on; switching brings back that branch’s story exactly as it was.
        </p>
        {running && (
          <p className="notice notice-info" data-testid="branches-running">
            A scene is being written. Branches can be changed when it is done.
          </p>
        )}
        {branches.error !== undefined && !branches.data && <LoadError error={branches.error} onRetry={branches.reload} />}
        <ul className="branch-list" data-testid="branch-list">
          {list.map((b) => (
            <li key={b.name} className={`branch-row${b.current ? " current" : ""}`} data-testid="branch-row" data-branch={b.name} data-current={b.current}>
              {renaming === b.name ? (
                <RenameForm
                  name={b.name}
                  onDone={(renamed) => {
                    setRenaming(null);
                    if (renamed) notify(`The branch is now called “${renamed}”.`);
                  }}
                />
              ) : (
                <>
                  <div className="branch-info">
                    <span className="branch-row-name">
                      {b.name}
                      {b.current && <span className="badge badge-accent">current</span>}
                    </span>
                    <span className="muted small" data-testid="branch-end">
                      {b.tick === 0 ? "No scenes yet" : `Up to scene ${b.tick}${b.last_title ? `: ${b.last_title}` : ""}`} · made {shortTime(b.created_at)}
                    </span>
                  </div>
                  <div className="branch-actions">
                    {!b.current && (
                      <button
                        type="button"
                        className="btn btn-primary btn-small"
                        data-testid="branch-switch"
                        disabled={running || busy !== null}
                        onClick={() => void switchTo(b)}
                      >
                        {busy === b.name ? "Switching…" : "Switch"}
                      </button>
                    )}
                    <button type="button" className="btn btn-quiet btn-small" data-testid="branch-rename" disabled={busy !== null} onClick={() => setRenaming(b.name)}>
                      Rename
                    </button>
                    {!b.current && (
                      <button
                        type="button"
                        className="btn btn-danger-quiet btn-small"
                        data-testid="branch-delete"
                        disabled={running || busy !== null}
                        onClick={() => setDeleting(b)}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
        {error && (
          <p className="notice notice-error" role="alert" data-testid="branches-error">
            {error}
          </p>
        )}
        <div className="form-actions branches-foot">
          {list.length >= 2 && latest > 0 && (
            <button
              type="button"
              className={`btn btn-quiet${compareAt !== null ? " on" : ""}`}
              data-testid="branches-compare"
              onClick={() => setCompareAt((c) => (c === null ? latest : null))}
            >
              <Icon name="compare" /> Compare a scene
            </button>
          )}
          <button type="button" className="btn btn-primary" data-testid="branches-new" disabled={running} onClick={() => setCreating(true)}>
            <Icon name="plus" /> New branch from the latest scene
          </button>
        </div>
        {compareAt !== null && (
          <div className="branches-compare">
            <label className="compare-scene">
              Scene
              <input
                type="number"
                min={1}
                data-testid="compare-scene"
                value={compareAt}
                onChange={(e) => setCompareAt(Math.max(1, Math.round(Number(e.target.value)) || 1))}
              />
            </label>
            <BranchCompare tick={compareAt} onClose={() => setCompareAt(null)} />
          </div>
        )}
      </div>
      {creating && <NewBranchDialog at={null} onClose={() => setCreating(false)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete the branch “${deleting.name}”?`}
          confirmLabel="Delete the branch"
          danger
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>It disappears from this list. Its scenes are not lost: each stays in the Versions of its scene.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function RenameForm({ name, onDone }: { name: string; onDone: (renamed: string | null) => void }) {
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (value.trim() === name) return onDone(null);
    setBusy(true);
    try {
      onDone(await call(commands.renameBranch(name, value.trim())));
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  return (
    <form
      className="branch-rename"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <input
        autoFocus
        data-testid="branch-rename-input"
        aria-label={`New name for the branch “${name}”`}
        value={value}
        maxLength={80}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onDone(null);
          }
        }}
      />
      <button type="submit" className="btn btn-primary btn-small" data-testid="branch-rename-save" disabled={busy}>
        Save
      </button>
      <button type="button" className="btn btn-quiet btn-small" onClick={() => onDone(null)}>
        Cancel
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

// A question before an action that moves the story: what will happen, what is kept, and a
// confirm button named after the action. Escape or a click outside cancels; focus stays in the
// dialog while it is open and goes back to the opener after.
import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { errorText } from "../lib/api";
import { useFocusTrap } from "../lib/focusTrap";

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Runs the action; an error it throws is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}

export function ConfirmDialog({ title, children, confirmLabel, danger = false, onConfirm, onCancel }: Props) {
  const cancel = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const trapKeys = useFocusTrap(dialog, busy ? undefined : onCancel);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  return (
    <div className="overlay" role="presentation" onClick={() => !busy && onCancel()}>
      <div
        ref={dialog}
        className="dialog confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        data-testid="confirm-dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={trapKeys}
      >
        <h2 id="confirm-title" className="confirm-title">
          {title}
        </h2>
        <div className="confirm-body">{children}</div>
        {error && (
          <p className="notice notice-error" role="alert" data-testid="confirm-error">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button ref={cancel} type="button" className="btn btn-quiet" data-testid="confirm-no" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
            data-testid="confirm-yes"
            disabled={busy}
            onClick={() => void confirm()}
          >
            {busy ? "Working…" : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

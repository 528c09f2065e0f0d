// A modal dialog holding a form: the overlay behind it (a click there closes it, unless busy),
// the heading with its close button, focus kept inside while it is open and given back after,
// Escape to close. `name` names its test ids, its heading's id and its CSS class
// (`<name>-dialog`, `<name>-title`).
import { useRef } from "react";
import type { FormEvent, ReactNode } from "react";
import { Icon } from "./Icon";
import { useFocusTrap } from "../lib/focusTrap";

interface Props {
  name: string;
  title: ReactNode;
  /** While busy the dialog cannot be closed (the work it started is under way). */
  busy: boolean;
  onClose: () => void;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}

export function FormDialog({ name, title, busy, onClose, onSubmit, children }: Props) {
  const dialog = useRef<HTMLFormElement>(null);
  const trapKeys = useFocusTrap(dialog, busy ? undefined : onClose);
  return (
    <div className="overlay" role="presentation" onClick={() => !busy && onClose()}>
      <form
        ref={dialog}
        className={`dialog ${name}-dialog`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${name}-title`}
        data-testid={`${name}-dialog`}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={trapKeys}
        onSubmit={onSubmit}
        noValidate
      >
        <div className="dialog-head">
          <h2 id={`${name}-title`}>{title}</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close" disabled={busy}>
            <Icon name="close" />
          </button>
        </div>
        {children}
      </form>
    </div>
  );
}

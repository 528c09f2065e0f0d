// The keyboard shortcuts overlay, opened with `?` or the header's keyboard button; Escape
// closes it and focus goes back to where it was.
import { useEffect, useRef } from "react";
import { useFocusTrap } from "../lib/focusTrap";
import { SHORTCUTS } from "../lib/shortcuts";
import { Icon } from "./Icon";

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => closeButton.current?.focus(), []);
  const trapKeys = useFocusTrap(dialog, onClose);
  return (
    <div className="overlay" role="presentation" onClick={onClose}>
      <div
        ref={dialog}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-dialog"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={trapKeys}
      >
        <div className="dialog-head">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button ref={closeButton} type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        <dl className="shortcut-list">
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="shortcut">
              <dt>
                {s.keys.split("+").map((k, i) => (
                  <span key={i}>
                    {i > 0 && "+"}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{s.what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

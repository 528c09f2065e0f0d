// A small drop-down menu of actions behind one button: opens on click (or when `openSignal`
// changes, e.g. from a shortcut, with the first item focused), closes on a choice, a click
// elsewhere or Escape.
import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";

export interface MenuItem {
  id: string;
  label: string;
  hint?: string;
  onSelect: () => void;
}

interface Props {
  label: ReactNode;
  /** Read by screen readers and shown as the tooltip (while the menu is closed). */
  title: string;
  testId: string;
  items: MenuItem[];
  disabled?: boolean;
  /** The button's classes (a small quiet button by default). */
  className?: string;
  /** Opens the menu, its first item focused, each time it changes (but not at first). */
  openSignal?: number;
}

export function Menu({ label, title, testId, items, disabled, className, openSignal }: Props) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const firstSignal = useRef(openSignal);
  const focusFirst = useRef(false);
  useEffect(() => {
    if (openSignal === firstSignal.current || disabled) return;
    firstSignal.current = openSignal;
    focusFirst.current = true;
    setOpen(true);
  }, [openSignal, disabled]);
  useEffect(() => {
    if (!open || !focusFirst.current) return;
    focusFirst.current = false;
    root.current?.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);
  return (
    <div
      className="menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className={className ?? "btn btn-quiet btn-small"}
        data-testid={testId}
        disabled={disabled}
        aria-haspopup="menu"
        aria-expanded={open}
        // A native tooltip cannot be placed: shown under the pointer, it would cover the
        // open menu's first items. The label stays for screen readers.
        title={open ? undefined : title}
        aria-label={title}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open && (
        <ul className="menu-list" role="menu">
          {items.map((item) => (
            <li key={item.id} role="none">
              <button
                type="button"
                role="menuitem"
                className="menu-item"
                data-testid={`menu-${item.id}`}
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
              >
                <span>{item.label}</span>
                {item.hint && <span className="menu-hint">{item.hint}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

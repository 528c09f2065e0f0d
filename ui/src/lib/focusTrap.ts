// Keeps keyboard focus inside a modal dialog while it is open: Tab and Shift+Tab cycle through
// the dialog's own controls, Escape closes it (when a handler is given), and on close the focus
// goes back to the control that opened it, so a keyboard user never lands on the page behind.
// The keys go through React's own event (the returned handler on the dialog's element), so a
// control inside that handles Escape itself (an inline rename) is asked first, and a dialog
// opened inside another one owns the keys while it is open.
import { useEffect, useState } from "react";
import type { KeyboardEvent, RefObject } from "react";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/** The controls of `root` that Tab can reach, in document order. */
export function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.getClientRects().length > 0);
}

/**
 * Traps focus in `dialog` while mounted and gives it back to the opener on unmount; returns
 * the `onKeyDown` for the dialog's element. With `onEscape`, Escape in the dialog calls it (a
 * dialog that is busy passes `undefined`).
 */
export function useFocusTrap(dialog: RefObject<HTMLElement | null>, onEscape?: () => void): (e: KeyboardEvent<HTMLElement>) => void {
  // Read during the first render, before any effect of the dialog moves the focus into it.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const root = dialog.current;
    if (root && !root.contains(document.activeElement)) (focusables(root)[0] ?? root).focus();
    return () => {
      // The opener may be gone (a menu item); then focus stays where the browser puts it.
      if (opener?.isConnected) opener.focus();
    };
  }, [dialog, opener]);

  return (e: KeyboardEvent<HTMLElement>) => {
    const root = e.currentTarget;
    if (e.defaultPrevented) return;
    if (e.key === "Escape") {
      if (!onEscape) return;
      e.preventDefault();
      e.stopPropagation();
      onEscape();
      return;
    }
    if (e.key !== "Tab") return;
    e.stopPropagation();
    const items = focusables(root);
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !root.contains(at))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === last || !root.contains(at))) {
      e.preventDefault();
      first.focus();
    }
  };
}

// Global keyboard shortcuts: one keydown listener on the window, and the list the help
// overlay shows. Views handle their own local keys (e.g. Ctrl+S in the scene editor).
import { useEffect, useRef } from "react";
import { VIEWS } from "./views";
import type { ViewId } from "./views";

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: "Ctrl+Enter", what: "Write the next scene" },
  { keys: "Ctrl+Shift+Enter", what: "Write the latest scene again (it stays as a version)" },
  { keys: "Escape", what: "Stop the run after the current scene" },
  { keys: "Ctrl+E", what: "Export the manuscript (Markdown, EPUB or Word)" },
  { keys: "Ctrl+S", what: "Save the scene you are editing" },
  { keys: "Ctrl+Shift+F", what: "Search the book by words or meaning" },
  { keys: "Ctrl+F", what: "Find in the manuscript (in the reader)" },
  ...VIEWS.map((v, i) => ({ keys: `Ctrl+${i + 1}`, what: `Go to ${v.label}` })),
  { keys: "?", what: "Show or hide this list" },
];

export interface ShortcutHandlers {
  view: (id: ViewId) => void;
  nextScene: () => void;
  regenerate: () => void;
  stop: () => void;
  exportMenu: () => void;
  searchBook: () => void;
  toggleHelp: () => void;
  closeHelp: () => boolean;
}

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useShortcuts(handlers: ShortcutHandlers) {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const h = current.current;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && !e.altKey && /^[1-9]$/.test(e.key)) {
        e.preventDefault();
        h.view(VIEWS[Number(e.key) - 1].id);
      } else if (mod && e.shiftKey && e.key === "Enter") {
        e.preventDefault();
        h.regenerate();
      } else if (mod && e.key === "Enter") {
        e.preventDefault();
        h.nextScene();
      } else if (mod && e.shiftKey && !e.altKey && (e.key === "f" || e.key === "F")) {
        e.preventDefault();
        h.searchBook();
      } else if (mod && (e.key === "e" || e.key === "E")) {
        e.preventDefault();
        h.exportMenu();
      } else if (e.key === "Escape" && !e.defaultPrevented) {
        if (!h.closeHelp()) h.stop();
      } else if (e.key === "?" && !mod && !typing(e.target)) {
        e.preventDefault();
        h.toggleHelp();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

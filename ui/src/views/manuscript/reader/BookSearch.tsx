// Search the book (Ctrl+Shift+F): a dialog over the reader with a query box, words / meaning /
// both, and the passages found, each with its chapter, scene and a snippet whose matching words
// are highlighted from the engine's character ranges (as text: snippets are model prose).
// Enter or a click jumps to the passage; Escape closes and gives the focus back; Tab stays
// inside while it is open.
import { useEffect, useRef, useState } from "react";
import { commands } from "../../../bindings";
import type { BookHit_Serialize, SearchMode } from "../../../bindings";
import { Icon } from "../../../components/Icon";
import { call, errorText } from "../../../lib/api";
import { fromCodePoints } from "../../../lib/textRanges";
import { MarkedText } from "../../shared/MarkedText";

export type BookHit = BookHit_Serialize;

const LIMIT = 30;
/** Typing pauses this long before the book is searched. */
const DEBOUNCE_MS = 250;

const MODES: { mode: SearchMode; label: string; hint: string }[] = [
  { mode: "words", label: "Words", hint: "The words themselves and their forms" },
  { mode: "meaning", label: "Meaning", hint: "Passages about it, even in other words" },
  { mode: "both", label: "Both", hint: "Words and meaning together" },
];

interface Props {
  /** Why searching by meaning is off (the local model is missing), or null. */
  meaningOff: string | null;
  onJump: (hit: BookHit) => void;
  onClose: () => void;
}

type Found = { key: string; hits: BookHit[] } | { key: string; error: string };

export function BookSearch({ meaningOff, onJump, onClose }: Props) {
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState<SearchMode>(meaningOff ? "words" : "both");
  const [found, setFound] = useState<Found | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    opener.current = document.activeElement;
    input.current?.focus();
    return () => {
      const back = opener.current;
      // Opened from another view (its element is gone) or from nowhere: the reader takes it.
      if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
      else document.querySelector<HTMLElement>('[data-testid="reader"]')?.focus();
    };
  }, []);

  const key = `${mode}\u0000${query.trim()}`;
  useEffect(() => {
    const q = query.trim();
    if (q === "") return;
    let live = true;
    const timer = setTimeout(() => {
      call(commands.searchBook(q, mode, LIMIT)).then(
        (hits) => live && setFound({ key, hits }),
        (e: unknown) => live && setFound({ key, error: errorText(e) }),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, query, mode]);

  const current = found?.key === key && query.trim() !== "" ? found : null;
  const hits = current && "hits" in current ? current.hits : [];
  const results = () => Array.from(dialog.current?.querySelectorAll<HTMLElement>("[data-testid=search-hit]") ?? []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const all = results();
      if (all.length === 0) return;
      e.preventDefault();
      const at = all.indexOf(document.activeElement as HTMLElement);
      const next = e.key === "ArrowDown" ? Math.min(at + 1, all.length - 1) : at - 1;
      if (next < 0) input.current?.focus();
      else all[next].focus();
    } else if (e.key === "Tab") {
      const focusable = Array.from(dialog.current?.querySelectorAll<HTMLElement>("input, button:not(:disabled)") ?? []);
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last?.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <div className="overlay" role="presentation" onClick={onClose}>
      <div
        ref={dialog}
        className="dialog book-search"
        role="dialog"
        aria-modal="true"
        aria-labelledby="book-search-title"
        data-testid="book-search"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-head">
          <h2 id="book-search-title">Search the book</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close (Escape)" data-testid="book-search-close">
            <Icon name="close" />
          </button>
        </div>
        <input
          ref={input}
          type="search"
          className="book-search-input"
          data-testid="book-search-input"
          aria-label="Search the book"
          placeholder="A name, a phrase, or what happens"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && hits.length > 0) {
              e.preventDefault();
              onJump(hits[0]);
            }
          }}
        />
        <div className="search-modes" role="group" aria-label="Search by">
          {MODES.map((m) => {
            const off = m.mode !== "words" && meaningOff !== null;
            return (
              <button
                key={m.mode}
                type="button"
                className={`btn btn-quiet btn-small${mode === m.mode ? " on" : ""}`}
                data-testid={`search-mode-${m.mode}`}
                aria-pressed={mode === m.mode}
                disabled={off}
                title={off ? `${meaningOff}` : m.hint}
                onClick={() => setMode(m.mode)}
              >
                {m.label}
              </button>
            );
          })}
        </div>
        <div className="book-search-results" aria-live="polite">
          {current && "error" in current && (
            <p className="field-error" role="alert" data-testid="book-search-error">
              {current.error}
            </p>
          )}
          {current && "hits" in current && hits.length === 0 && (
            <p className="muted" data-testid="book-search-empty">
              Nothing in the book matches “{query.trim()}”.
            </p>
          )}
          {hits.length > 0 && (
            <ul className="search-hits">
              {hits.map((hit, i) => (
                <li key={`${hit.scene_id}:${hit.offset ?? i}:${i}`}>
                  <button type="button" className="search-hit" data-testid="search-hit" data-tick={hit.tick} onClick={() => onJump(hit)}>
                    <span className="search-hit-where">
                      Chapter {hit.chapter} · Scene {hit.tick} · {hit.scene_title || "Untitled"}
                      {!hit.by_words && <span className="search-hit-meaning"> · by meaning</span>}
                    </span>
                    <span className="search-hit-snippet" data-testid="search-snippet">
                      <MarkedText text={hit.snippet} highlights={fromCodePoints(hit.snippet, hit.marks)} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}

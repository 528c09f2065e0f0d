// Find in the manuscript (Ctrl+F in the reader): a bar over the reading column with the
// query, "n of m", previous/next (Shift+Enter / Enter) and close (Escape), which gives the
// focus back to where it was.
import { useEffect, useRef } from "react";
import { Icon } from "../../../components/Icon";

interface Props {
  query: string;
  onQuery: (query: string) => void;
  /** Matches in the whole manuscript, and the one the reader is on (0-based). */
  count: number;
  index: number;
  onStep: (by: 1 | -1) => void;
  onClose: () => void;
  /** Changes each time Ctrl+F is pressed again while the bar is open: refocus and select. */
  focusSignal: number;
}

export function FindBar({ query, onQuery, count, index, onStep, onClose, focusSignal }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    return () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
  }, []);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusSignal]);
  const status = query.trim() === "" ? "" : count === 0 ? "No matches" : `${index + 1} of ${count}`;
  return (
    <div
      className="find-bar"
      role="search"
      aria-label="Find in the manuscript"
      data-testid="find-bar"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <Icon name="search" size={16} />
      <input
        ref={input}
        type="search"
        className="find-input"
        data-testid="find-input"
        aria-label="Find in the manuscript"
        placeholder="Find in the manuscript"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onStep(e.shiftKey ? -1 : 1);
          }
        }}
      />
      <span className="find-count muted small" data-testid="find-count" aria-live="polite">
        {status}
      </span>
      <button type="button" className="icon-btn" data-testid="find-prev" aria-label="Previous match (Shift+Enter)" title="Previous (Shift+Enter)" disabled={count === 0} onClick={() => onStep(-1)}>
        <Icon name="chevron-up" size={16} />
      </button>
      <button type="button" className="icon-btn" data-testid="find-next" aria-label="Next match (Enter)" title="Next (Enter)" disabled={count === 0} onClick={() => onStep(1)}>
        <Icon name="chevron-down" size={16} />
      </button>
      <button type="button" className="icon-btn" data-testid="find-close" aria-label="Close find (Escape)" title="Close (Escape)" onClick={onClose}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

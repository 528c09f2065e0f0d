// Links between views about the story's people, places and lore: open a codex page (from the
// Graph's panel, or wherever a name is shown) and open the manuscript at a scene the codex
// found a name in. The app's shell provides them; a view without the provider links nowhere.
import { createContext, useContext } from "react";

export interface CodexTarget {
  id: string;
  /** A new number opens the page again (the same page asked for twice). */
  nonce: number;
}

export interface CodexLinks {
  /** The page the Bible's codex should show, when another view asked for one. */
  target: CodexTarget | null;
  openCodex: (id: string) => void;
  /** The manuscript, scrolled to the scene. */
  readScene: (tick: number) => void;
}

export const CodexLinkContext = createContext<CodexLinks | null>(null);

export function useCodexLinks(): CodexLinks | null {
  return useContext(CodexLinkContext);
}

/** The nonce of the last target a page was opened for: a target opens its page once, not
 *  again each time the Bible is shown. */
let shown: number | null = null;

/** `target` unless its page was opened already. */
export function unseen(target: CodexTarget | null | undefined): CodexTarget | null {
  return target && target.nonce !== shown ? target : null;
}

export function markSeen(target: CodexTarget): void {
  shown = target.nonce;
}

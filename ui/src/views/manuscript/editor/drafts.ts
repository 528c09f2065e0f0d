// Autosaved drafts of a scene being edited, in localStorage: keyed by novel path and scene tick,
// with the prose the draft started from, so a restored draft can say the scene changed since.
export interface Draft {
  text: string;
  /** The scene's prose when the draft was taken. */
  base: string;
  savedAt: string;
}

const key = (novel: string, tick: number) => `novel-agent:draft:${novel}:${tick}`;

export function loadDraft(novel: string, tick: number): Draft | null {
  try {
    const raw = localStorage.getItem(key(novel, tick));
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<Draft>;
    if (typeof d.text !== "string" || typeof d.base !== "string") return null;
    return { text: d.text, base: d.base, savedAt: typeof d.savedAt === "string" ? d.savedAt : "" };
  } catch {
    return null;
  }
}

export function saveDraft(novel: string, tick: number, draft: Draft) {
  try {
    localStorage.setItem(key(novel, tick), JSON.stringify(draft));
  } catch {
    // Storage full or unavailable: the edit itself is still in the editor.
  }
}

export function clearDraft(novel: string, tick: number) {
  try {
    localStorage.removeItem(key(novel, tick));
  } catch {
    // Nothing to clear.
  }
}

// The app's views, in navigation order, with their shortcut (Ctrl+1 … Ctrl+9).
export type ViewId = "library" | "write" | "manuscript" | "graph" | "timeline" | "loops" | "bible" | "audit" | "settings";

export const VIEWS: { id: ViewId; label: string; needsNovel: boolean }[] = [
  { id: "library", label: "Library", needsNovel: false },
  { id: "write", label: "Write", needsNovel: true },
  { id: "manuscript", label: "Manuscript", needsNovel: true },
  { id: "graph", label: "Graph", needsNovel: true },
  { id: "timeline", label: "Timeline", needsNovel: true },
  { id: "loops", label: "Loops", needsNovel: true },
  { id: "bible", label: "Bible", needsNovel: true },
  { id: "audit", label: "Audit", needsNovel: true },
  { id: "settings", label: "Settings", needsNovel: false },
];

export function viewShortcut(id: ViewId): string {
  return `Ctrl+${VIEWS.findIndex((v) => v.id === id) + 1}`;
}

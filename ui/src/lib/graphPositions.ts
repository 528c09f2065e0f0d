// Where the writer dragged the graph's nodes, kept per novel (localStorage, keyed by the
// novel's folder) so the graph opens as they left it; `clear` is the "Reset layout".
import type { Positions } from "./graph";

const PREFIX = "novel-agent.graph-positions:";

function isPoint(v: unknown): v is { x: number; y: number } {
  if (typeof v !== "object" || v === null) return false;
  const p = v as Record<string, unknown>;
  return typeof p.x === "number" && typeof p.y === "number" && Number.isFinite(p.x) && Number.isFinite(p.y);
}

/** The saved positions of the novel at `path`; none if nothing was saved or it is unreadable. */
export function loadPositions(path: string | undefined): Positions {
  if (!path) return {};
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(PREFIX + path) ?? "{}");
    if (typeof raw !== "object" || raw === null) return {};
    const out: Positions = {};
    for (const [id, p] of Object.entries(raw)) if (isPoint(p)) out[id] = { x: p.x, y: p.y };
    return out;
  } catch {
    return {};
  }
}

export function savePositions(path: string | undefined, positions: Positions) {
  if (!path) return;
  try {
    localStorage.setItem(PREFIX + path, JSON.stringify(positions));
  } catch {
    // Storage full or disabled: the layout still works, it just is not remembered.
  }
}

export function clearPositions(path: string | undefined) {
  if (!path) return;
  try {
    localStorage.removeItem(PREFIX + path);
  } catch {
    // Nothing to clear.
  }
}

// A word diff from Rust (runs of same / removed / added text), laid out for one side of the
// side-by-side view: the old side keeps what was removed, the new side what was added, and
// both split into paragraphs at blank lines. The text stays text (rendered as React nodes).
import type { DiffKind } from "../bindings";

export interface DiffPiece {
  kind: DiffKind;
  text: string;
}

export type DiffSide = "old" | "new";

export function sideParagraphs(runs: { kind: DiffKind; text: string }[], side: DiffSide): DiffPiece[][] {
  const own = side === "old" ? "removed" : "added";
  const out: DiffPiece[][] = [[]];
  for (const run of runs) {
    if (run.kind !== "same" && run.kind !== own) continue;
    const blocks = run.text.replace(/\r\n?/g, "\n").split(/\n[^\S\n]*\n\s*/);
    blocks.forEach((block, i) => {
      if (i > 0) out.push([]);
      if (block !== "") out[out.length - 1].push({ kind: run.kind, text: block });
    });
  }
  return out
    .map((pieces) => trimEnds(pieces))
    .filter((pieces) => pieces.some((p) => p.text.trim() !== ""));
}

function trimEnds(pieces: DiffPiece[]): DiffPiece[] {
  if (pieces.length === 0) return pieces;
  const copy = pieces.map((p) => ({ ...p }));
  copy[0].text = copy[0].text.trimStart();
  copy[copy.length - 1].text = copy[copy.length - 1].text.trimEnd();
  return copy.filter((p) => p.text !== "");
}

/** Words removed and added, for the diff's summary line. */
export function diffCounts(runs: { kind: DiffKind; text: string }[]): { removed: number; added: number } {
  const words = (t: string) => t.trim().split(/\s+/).filter(Boolean).length;
  let removed = 0;
  let added = 0;
  for (const r of runs) {
    if (r.kind === "removed") removed += words(r.text);
    if (r.kind === "added") added += words(r.text);
  }
  return { removed, added };
}


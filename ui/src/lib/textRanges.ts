// Ranges in untrusted text, for highlighting it without markup: the engine counts characters
// as Unicode code points, JavaScript strings index UTF-16 units, so offsets are converted
// here; text is then cut into plain pieces, some of them marked, each rendered as a text node.

/** A range of a string in UTF-16 units, `end` exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/** A marked range; `current` is the one the reader is on (the active find match, the passage jumped to). */
export interface Highlight extends TextRange {
  current?: boolean;
}

/** The UTF-16 index of the `codePoints`-th code point of `text` (clamped to its length). */
export function codePointIndex(text: string, codePoints: number): number {
  let units = 0;
  let seen = 0;
  for (const ch of text) {
    if (seen >= codePoints) break;
    units += ch.length;
    seen += 1;
  }
  return units;
}

/** Ranges given in code points (`start`, `len`) as UTF-16 ranges of `text`. */
export function fromCodePoints(text: string, marks: { start: number; len: number }[]): TextRange[] {
  return marks.map((m) => {
    const start = codePointIndex(text, m.start);
    return { start, end: start + codePointIndex(text.slice(start), m.len) };
  });
}

/** Every occurrence of `needle` in `text`, ignoring case (UTF-16 ranges, not overlapping). */
export function findAll(text: string, needle: string): TextRange[] {
  const query = needle.toLocaleLowerCase();
  if (query.trim() === "") return [];
  const haystack = text.toLocaleLowerCase();
  // Lowercasing can change lengths (rare: e.g. "İ"); then offsets would drift, so search as is.
  const same = haystack.length === text.length;
  const hay = same ? haystack : text;
  const q = same ? query : needle;
  const out: TextRange[] = [];
  for (let i = hay.indexOf(q); i >= 0; i = hay.indexOf(q, i + q.length)) out.push({ start: i, end: i + q.length });
  return out;
}

/** A paragraph of prose and where it starts in the raw text. */
export interface ParagraphSpan {
  text: string;
  start: number;
}

/**
 * The paragraphs of `prose` (blocks between blank lines, trimmed; the same ones `paragraphs`
 * in lib/prose.ts gives) with their offsets in the raw text, so ranges of the raw text can be
 * marked inside them.
 */
export function paragraphSpans(prose: string): ParagraphSpan[] {
  const spans: ParagraphSpan[] = [];
  const push = (from: number, to: number) => {
    const raw = prose.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text.length > 0) spans.push({ text, start: from + lead });
  };
  const breaks = /\n\s*\n/g;
  let from = 0;
  for (let m = breaks.exec(prose); m; m = breaks.exec(prose)) {
    push(from, m.index);
    from = m.index + m[0].length;
  }
  push(from, prose.length);
  return spans;
}

/** A piece of text, marked or not. */
export interface Piece {
  text: string;
  mark: "none" | "hit" | "current";
}

/** `text` (starting at `offset` of the whole) cut at the highlights that fall inside it. */
export function pieces(text: string, highlights: Highlight[], offset = 0): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  const sorted = [...highlights].sort((a, b) => a.start - b.start);
  for (const h of sorted) {
    const start = Math.max(h.start - offset, at);
    const end = Math.min(h.end - offset, text.length);
    if (end <= start) continue;
    if (start > at) out.push({ text: text.slice(at, start), mark: "none" });
    out.push({ text: text.slice(start, end), mark: h.current ? "current" : "hit" });
    at = end;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), mark: "none" });
  return out;
}

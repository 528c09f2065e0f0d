// The mocked book search (`search_book`): every paragraph of the scenes that holds a word of the
// query, as the engine reports it (chapter, scene, snippet with the words marked in code points,
// the passage's offset in code points); by meaning, each scene's opening paragraph.
import type { AppError, BookHit_Serialize, Mark, SceneView_Serialize } from "../../src/bindings";

interface Deps {
  need: () => void;
  scenes: () => SceneView_Serialize[];
  /** Why searching by meaning is off, or null. */
  meaningOff: () => string | null;
}

const codePoints = (s: string) => Array.from(s).length;

function spans(prose: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let from = 0;
  for (const part of prose.split(/(\n\s*\n)/)) {
    if (!/^\n\s*\n$/.test(part) && part.trim()) out.push({ text: part.trim(), start: from + (part.length - part.trimStart().length) });
    from += part.length;
  }
  return out;
}

function marks(text: string, words: string[]): Mark[] {
  const out: Mark[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0].toLowerCase();
    if (words.some((q) => w === q || w.startsWith(q))) out.push({ start: codePoints(text.slice(0, m.index)), len: codePoints(m[0]) });
  }
  return out;
}

export function searchHandlers({ need, scenes, meaningOff }: Deps): Record<string, (a: Record<string, unknown>) => unknown> {
  return {
    search_book: (a) => {
      need();
      const query = String(a.query).trim();
      if (!query) throw { kind: "invalid_input", message: "Type a word or a phrase to search for." } satisfies AppError;
      const off = meaningOff();
      if (a.mode === "meaning" && off) throw { kind: "invalid_input", message: `Searching by meaning needs the local embedding model (${off}). Search by words instead.` } satisfies AppError;
      const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
      const hits: BookHit_Serialize[] = [];
      for (const scene of scenes()) {
        const paragraphs = spans(scene.prose);
        const found = a.mode === "meaning" ? paragraphs.slice(0, 1) : paragraphs.filter((p) => marks(p.text, words).length > 0);
        for (const p of found) {
          hits.push({
            scene_id: scene.id,
            tick: scene.tick,
            scene_title: scene.title,
            chapter: Math.ceil(scene.tick / 3),
            chapter_title: `Chapter ${Math.ceil(scene.tick / 3)}`,
            snippet: p.text,
            marks: marks(p.text, words),
            offset: codePoints(scene.prose.slice(0, p.start)),
            by_words: a.mode !== "meaning",
            score: 1 / (hits.length + 1),
          });
        }
      }
      return hits.slice(0, Number(a.limit) || 30);
    },
  };
}

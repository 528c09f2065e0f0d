// The mocked reader extras. The contents (`book_contents`): chapters of three scenes, the first
// opening a part, every other one with a proposed title. The book search (`search_book`): every paragraph of the scenes that holds a word of the
// query, as the engine reports it (chapter, scene, snippet with the words marked in code points,
// the passage's offset in code points); by meaning, each scene's opening paragraph.
import type { AppError, BookHit_Serialize, ChapterView_Serialize, Mark, SceneView_Serialize } from "../../src/bindings";

const CHAPTER_TITLES = ["The Quay", "Under the Salt Gate", "Storm Bells", "Ledgers"];
const PER_CHAPTER = 3;

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

export function readerHandlers({ need, scenes, meaningOff }: Deps): Record<string, (a: Record<string, unknown>) => unknown> {
  return {
    book_contents: (): ChapterView_Serialize[] => {
      need();
      const chapters: ChapterView_Serialize[] = [];
      for (const scene of scenes()) {
        const number = Math.ceil(scene.tick / PER_CHAPTER);
        let chapter = chapters.find((c) => c.number === number);
        if (!chapter) {
          chapter = {
            number,
            title: CHAPTER_TITLES[(number - 1) % CHAPTER_TITLES.length],
            part_title: number === 1 ? "Part One: Low Water" : null,
            proposed: number % 2 === 0,
            first_tick: scene.tick,
            last_tick: scene.tick,
            words: 0,
            scenes: [],
          };
          chapters.push(chapter);
        }
        chapter.last_tick = scene.tick;
        chapter.words += scene.word_count;
        chapter.scenes.push({ tick: scene.tick, title: scene.title, words: scene.word_count });
      }
      return chapters;
    },
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

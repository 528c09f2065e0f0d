// The mocked reader extras. The contents (`book_contents`): chapters of three scenes, the first
// opening a part, every other one with a proposed title. The book search (`search_book`): every paragraph of the scenes that holds a word of the
// query, as the engine reports it (chapter, scene, snippet with the words marked in code points,
// the passage's offset in code points); by meaning, each scene's opening paragraph.
import type { AppError, BookHit_Serialize, ChangeReason, ChapterView_Serialize, Mark, SceneView_Serialize } from "../../src/bindings";

const CHAPTER_TITLES = ["The Quay", "Under the Salt Gate", "Storm Bells", "Ledgers"];
const PER_CHAPTER = 3;

interface Deps {
  need: () => void;
  /** Tells the app the novel changed (every view reloads). */
  changed: (reason: ChangeReason) => unknown;
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

/** Where each chapter starts, with its title and part heading, once the writer edited them. */
interface Start {
  first: number;
  title: string;
  proposed: boolean;
  part: string | null;
}

export function readerHandlers({ need, changed, scenes, meaningOff }: Deps): Record<string, (a: Record<string, unknown>) => unknown> {
  // Chapters of PER_CHAPTER scenes until the writer edits them (then the edited layout holds).
  let edited: Start[] | null = null;
  const layout = (): Start[] =>
    edited ??
    scenes()
      .filter((s) => (s.tick - 1) % PER_CHAPTER === 0)
      .map((s) => {
        const number = Math.ceil(s.tick / PER_CHAPTER);
        return { first: s.tick, title: CHAPTER_TITLES[(number - 1) % CHAPTER_TITLES.length], proposed: number % 2 === 0, part: number === 1 ? "Part One: Low Water" : null };
      });
  const contents = (): ChapterView_Serialize[] => {
    const starts = layout();
    return starts.map((start, i) => {
      const end = starts[i + 1]?.first ?? Infinity;
      const inside = scenes().filter((s) => s.tick >= start.first && s.tick < end);
      return {
        number: i + 1,
        title: start.title,
        part_title: start.part,
        proposed: start.proposed,
        first_tick: start.first,
        last_tick: inside[inside.length - 1]?.tick ?? start.first,
        words: inside.reduce((n, s) => n + s.word_count, 0),
        scenes: inside.map((s) => ({ tick: s.tick, title: s.title, words: s.word_count })),
      };
    });
  };
  const refuse = (message: string): never => {
    throw { kind: "invalid_input", message } satisfies AppError;
  };
  return {
    book_contents: (): ChapterView_Serialize[] => {
      need();
      return contents();
    },
    change_chapter: (a): ChapterView_Serialize[] => {
      need();
      const c = a.change as { change: string; chapter: number; title?: string | null; at_tick?: number };
      const starts = layout().map((x) => ({ ...x }));
      const at = c.chapter - 1;
      if (!starts[at]) throw { kind: "not_found", message: `There is no chapter ${c.chapter}.` } satisfies AppError;
      if (c.change === "rename") {
        if (!c.title?.trim()) refuse("A chapter needs a title; write a few words.");
        starts[at] = { ...starts[at], title: String(c.title).trim(), proposed: false };
      } else if (c.change === "split") {
        const tick = Number(c.at_tick);
        const end = starts[at + 1]?.first ?? Infinity;
        if (!(tick > starts[at].first && tick < end)) refuse(`Chapter ${c.chapter} cannot be split before scene ${tick}.`);
        starts.splice(at + 1, 0, { first: tick, title: `From scene ${tick}`, proposed: true, part: null });
      } else if (c.change === "merge") {
        if (!starts[at + 1]) refuse(`Chapter ${c.chapter} is the last one; there is no next chapter to merge it with.`);
        starts.splice(at + 1, 1);
      } else if (c.change === "part") {
        starts[at] = { ...starts[at], part: c.title?.trim() ? c.title.trim() : null };
      }
      edited = starts;
      void changed("scene_edited");
      return contents();
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

// The mocked story so far (`story_synopsis`) for UI tests: the fixture's scenes three to a
// chapter, chapters gathered into arcs of two, each chapter told from its scenes' summaries as
// the engine tells it (a paragraph of their lead lines).
import type { SceneView_Serialize, Synopsis, SynopsisArc, SynopsisChapter } from "../../src/bindings";

interface Ctx {
  need: () => void;
  scenes: () => SceneView_Serialize[];
}

const PER_CHAPTER = 3;
const PER_ARC = 2;

export function synopsisHandlers({ need, scenes }: Ctx) {
  return {
    story_synopsis: (): Synopsis => {
      need();
      const all = scenes();
      const chapters: SynopsisChapter[] = [];
      for (let i = 0; i < all.length; i += PER_CHAPTER) {
        const run = all.slice(i, i + PER_CHAPTER);
        const number = chapters.length + 1;
        chapters.push({
          number,
          title: `Chapter ${number}: ${run[0].title}`,
          first_tick: run[0].tick,
          last_tick: run[run.length - 1].tick,
          text: run.map((s) => s.summary[0] ?? s.title).join(" "),
        });
      }
      const arcs: SynopsisArc[] = [];
      for (let i = 0; i < chapters.length; i += PER_ARC) {
        const part = chapters.slice(i, i + PER_ARC);
        const [first, last] = [part[0].number, part[part.length - 1].number];
        arcs.push({ title: first === last ? `Chapter ${first}` : `Chapters ${first}–${last}`, chapters: part });
      }
      return { scenes: all.length, words: all.reduce((n, s) => n + s.word_count, 0), arcs };
    },
  };
}

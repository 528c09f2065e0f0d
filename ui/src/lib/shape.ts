// Where a scene goes when the writer shapes the book: the place right after a scene (before
// the next one of its chapter, or the end of its chapter), one place up or down (crossing into
// the neighbouring chapter at its edge), and the writer's sentence for what a change did.
import type { ChapterView_Serialize as Chapter, Place } from "../bindings";

/** The chapter (its number) holding scene `tick`, if the contents hold it. */
export function chapterOf(tick: number, chapters: Chapter[]): Chapter | undefined {
  return chapters.find((c) => tick >= c.first_tick && tick <= c.last_tick);
}

/** The place right after scene `tick`, in its chapter. */
export function placeAfter(tick: number, chapters: Chapter[]): Place {
  const chapter = chapterOf(tick, chapters);
  if (!chapter || tick < chapter.last_tick) return { kind: "before", at: tick + 1 };
  return { kind: "end_of_chapter", at: chapter.number };
}

/** Scene `tick` one place earlier: before the scene above it, or to the end of the chapter
 *  before when it opens its chapter; null at the start of the book. */
export function placeUp(tick: number, chapters: Chapter[]): Place | null {
  const chapter = chapterOf(tick, chapters);
  if (chapter && tick === chapter.first_tick) {
    return chapter.number > 1 ? { kind: "end_of_chapter", at: chapter.number - 1 } : null;
  }
  return tick > 1 ? { kind: "before", at: tick - 1 } : null;
}

/** Scene `tick` one place later: after the scene below it, or to the start of the next chapter
 *  when it ends its chapter (same number, another chapter); null at the end of the book. */
export function placeDown(tick: number, chapters: Chapter[], last: number): Place | null {
  const chapter = chapterOf(tick, chapters);
  if (chapter && tick === chapter.last_tick) {
    const next = chapters.find((c) => c.number === chapter.number + 1);
    if (!next) return null;
    return { kind: "before", at: next.first_tick };
  }
  if (tick >= last) return null;
  return tick + 2 <= (chapter?.last_tick ?? last) ? { kind: "before", at: tick + 2 } : { kind: "end_of_chapter", at: chapter?.number ?? 1 };
}

/** The paragraphs of a scene, as the engine splits them (blank lines). */
export function paragraphs(prose: string): string[] {
  return prose
    .split("\n\n")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

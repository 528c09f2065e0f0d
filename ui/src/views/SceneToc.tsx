// The manuscript's table of contents: the book's chapters (under their part headings), each
// with its scenes and a menu to rename, split, merge it or open a part there; a click on a
// chapter or a scene jumps to it. Until the chapters load (or if they cannot), one flat entry
// per scene.
import type { ChapterView_Serialize } from "../bindings";
import type { Scene } from "../lib/types";
import { ChapterEdit } from "./ChapterEdit";

export type Chapter = ChapterView_Serialize;

interface Props {
  scenes: Scene[];
  chapters: Chapter[] | undefined;
  onJump: (tick: number) => void;
  /** A scene is being written: chapter edits would be refused, so they are not offered. */
  running: boolean;
}

export function SceneToc({ scenes, chapters, onJump, running }: Props) {
  const entry = (s: { tick: number; title: string }) => (
    <li key={s.tick}>
      <button type="button" className="toc-item" data-testid="toc-item" data-tick={s.tick} onClick={() => onJump(s.tick)}>
        <span className="toc-number">{s.tick}</span>
        <span className="toc-title">{s.title || "Untitled"}</span>
      </button>
    </li>
  );
  const grouped = chapters !== undefined && chapters.length > 0;
  // Scenes the contents do not hold yet (e.g. one committed since they loaded) stay listed.
  const outside = grouped ? scenes.filter((s) => !chapters.some((c) => s.tick >= c.first_tick && s.tick <= c.last_tick)) : scenes;
  return (
    <nav className="toc" aria-label="Table of contents">
      <h2 className="toc-head">Contents</h2>
      {grouped && (
        <ol className="toc-chapters">
          {chapters.map((c, i) => (
            <li key={c.number} className="toc-chapter" data-testid="toc-chapter" data-chapter={c.number}>
              {c.part_title && (
                <p className="toc-part" data-testid="toc-part">
                  {c.part_title}
                </p>
              )}
              <button
                type="button"
                className="toc-chapter-title"
                data-testid="toc-chapter-title"
                onClick={() => onJump(c.first_tick)}
                title={c.proposed ? "A proposed title, from the chapter's scenes: rename it from the chapter's menu" : undefined}
              >
                <span className="toc-number">{c.number}</span>
                <span className={c.proposed ? "toc-title proposed" : "toc-title"}>{c.title || `Chapter ${c.number}`}</span>
              </button>
              <ChapterEdit chapter={c} hasNext={i + 1 < chapters.length} disabled={running} />
              <ol>{scenes.filter((s) => s.tick >= c.first_tick && s.tick <= c.last_tick).map(entry)}</ol>
            </li>
          ))}
        </ol>
      )}
      {outside.length > 0 && <ol>{outside.map(entry)}</ol>}
    </nav>
  );
}

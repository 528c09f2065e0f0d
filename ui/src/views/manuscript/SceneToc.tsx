// The manuscript's table of contents: the book's chapters (under their part headings), each
// with its scenes and a menu to rename, split, merge, move or delete it or open a part there;
// a click on a chapter or a scene jumps to it. A scene can be dragged onto another (it goes
// before that one) or onto a chapter's title (it goes to the end of that chapter); the
// keyboard's way is Move up/down in the scene's menu. Until the chapters load (or if they
// cannot), one flat entry per scene.
import { useState } from "react";
import type { DragEvent } from "react";
import type { ChapterView_Serialize, Place, SceneChange_Deserialize as SceneChange } from "../../bindings";
import type { Scene } from "../../lib/types";
import { ChapterEdit } from "./ChapterEdit";

export type Chapter = ChapterView_Serialize;

interface Props {
  scenes: Scene[];
  chapters: Chapter[] | undefined;
  onJump: (tick: number) => void;
  /** A scene is being written: chapter edits would be refused, so they are not offered. */
  running: boolean;
  /** Moves and deletes of scenes and chapters. */
  onShape: (change: SceneChange) => void;
}

/** The drag's data type: a scene's number. */
const SCENE_DRAG = "application/x-novel-scene";

export function SceneToc({ scenes, chapters, onJump, running, onShape }: Props) {
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const dropProps = (key: string, place: Place) =>
    running || dragging === null
      ? {}
      : {
          onDragOver: (e: DragEvent) => {
            e.preventDefault();
            e.dataTransfer.dropEffect = "move";
            setOver(key);
          },
          onDragLeave: () => setOver((o) => (o === key ? null : o)),
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            const tick = Number(e.dataTransfer.getData(SCENE_DRAG) || dragging);
            setOver(null);
            setDragging(null);
            if (tick > 0 && !(place.kind === "before" && place.at === tick)) onShape({ change: "move", scene: tick, place });
          },
        };
  const entry = (s: { tick: number; title: string }) => (
    <li key={s.tick} className={over === `scene-${s.tick}` ? "drop-before" : undefined} {...dropProps(`scene-${s.tick}`, { kind: "before", at: s.tick })}>
      <button
        type="button"
        className={dragging === s.tick ? "toc-item dragging" : "toc-item"}
        data-testid="toc-item"
        data-tick={s.tick}
        onClick={() => onJump(s.tick)}
        draggable={!running}
        title={running ? undefined : "Drag to move this scene"}
        onDragStart={(e) => {
          e.dataTransfer.setData(SCENE_DRAG, String(s.tick));
          e.dataTransfer.effectAllowed = "move";
          setDragging(s.tick);
        }}
        onDragEnd={() => {
          setDragging(null);
          setOver(null);
        }}
      >
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
            <li key={c.number} className={over === `chapter-${c.number}` ? "toc-chapter drop-end" : "toc-chapter"} data-testid="toc-chapter" data-chapter={c.number}>
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
                {...dropProps(`chapter-${c.number}`, { kind: "end_of_chapter", at: c.number })}
                title={c.proposed ? "A proposed title, from the chapter's scenes: rename it from the chapter's menu" : undefined}
              >
                <span className="toc-number">{c.number}</span>
                <span className={c.proposed ? "toc-title proposed" : "toc-title"}>{c.title || `Chapter ${c.number}`}</span>
              </button>
              <ChapterEdit chapter={c} hasNext={i + 1 < chapters.length} disabled={running} onShape={onShape} count={chapters.length} />
              <ol>{scenes.filter((s) => s.tick >= c.first_tick && s.tick <= c.last_tick).map(entry)}</ol>
            </li>
          ))}
        </ol>
      )}
      {outside.length > 0 && <ol>{outside.map(entry)}</ol>}
    </nav>
  );
}

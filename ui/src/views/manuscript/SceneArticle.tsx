// One scene in the reader: number, title, POV, place, word count and the prose as text (find
// matches and a searched passage marked in it);
// Edit turns the prose into the scene editor (editor/SceneEditor) with Save, Cancel and Split
// here (at the cursor). Versions opens
// the scene's versions under its heading, Check runs every check on it as it stands; the menu has the scene across branches, rewind to
// here, a new branch from here, (on the latest scene, when the agent wrote it) writing it again,
// and shaping the book:
// move up or down (the keyboard's way to reorder; the contents also take a drag), split at a
// paragraph, merge with the next scene, rename and delete.
import { memo, useState } from "react";
import type { FormEvent } from "react";
import type { ChapterView_Serialize as Chapter, Place, SceneChange_Deserialize as SceneChange } from "../../bindings";
import { Icon } from "../../components/Icon";
import { Menu } from "../../components/Menu";
import type { MenuItem } from "../../components/Menu";
import { errorText } from "../../lib/api";
import { useNovel } from "../../lib/novel";
import { plural } from "../../lib/format";
import { paragraphs, placeDown, placeUp } from "../../lib/shape";
import type { Highlight } from "../../lib/textRanges";
import type { Scene } from "../../lib/types";
import { BranchCompare } from "../shared/BranchCompare";
import { SceneChecks } from "./SceneChecks";
import { VersionsPanel } from "./VersionsPanel";
import { SceneEditor } from "./editor/SceneEditor";
import { ReaderProse } from "./reader/ReaderProse";

/** What opens under a scene's heading. */
export type ScenePanel = "versions" | "compare" | "checks";

interface Props {
  scene: Scene;
  /** The last scene of the story: the one that can be written again. */
  latest: boolean;
  /** A scene is being written: moves would be refused, so they are not offered. */
  running: boolean;
  editing: boolean;
  panel: ScenePanel | null;
  onEdit: (tick: number | null) => void;
  onSave: (tick: number, prose: string) => Promise<void>;
  onPanel: (tick: number, panel: ScenePanel) => void;
  onRewind: (tick: number) => void;
  onBranchFrom: (tick: number) => void;
  onWriteAgain: () => void;
  /** Ranges of the prose to mark (find matches, the passage a search jumped to). */
  highlights: Highlight[];
  /** The book's chapters (where Move up/down lead), once loaded. */
  chapters: Chapter[] | undefined;
  /** The last scene's number. */
  last: number;
  /** Makes a shaping change; rejects with the reason it was refused. */
  onShape: (change: SceneChange) => Promise<void>;
}

type ShapeForm = "rename" | "split" | null;

/** Where Move up/down takes a scene, in words: past its neighbour, or into the next chapter
 *  (same number, another chapter) when it is at its chapter's edge. */
function moveHint(place: Place, neighbour: number, side: "before" | "after"): string {
  const crossing = (side === "before" && place.kind === "end_of_chapter") || (side === "after" && place.kind === "before" && place.at === neighbour);
  if (crossing) return side === "before" ? "To the end of the chapter before" : "To the start of the next chapter";
  return `${side === "before" ? "Before" : "After"} scene ${neighbour}`;
}

export const SceneArticle = memo(function SceneArticle({
  scene,
  latest,
  running,
  editing,
  panel,
  onEdit,
  onSave,
  onPanel,
  onRewind,
  onBranchFrom,
  onWriteAgain,
  highlights,
  chapters,
  last,
  onShape,
}: Props) {
  // An imported scene, or one written by hand, is not the agent's to write again.
  const writable = useNovel().overview?.write_again_refusal == null;
  const [form, setForm] = useState<ShapeForm>(null);
  const [title, setTitle] = useState(scene.title);
  const [after, setAfter] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const paras = form === "split" ? paragraphs(scene.prose) : [];
  const tick = scene.tick;
  const shape = (change: SceneChange) => {
    setError(null);
    onShape(change).then(
      () => setForm(null),
      (e: unknown) => setError(errorText(e)),
    );
  };
  const openForm = (f: ShapeForm) => {
    setError(null);
    setAfter(1);
    setTitle(scene.title);
    setForm(f);
  };
  const up = chapters ? placeUp(tick, chapters) : null;
  const down = chapters ? placeDown(tick, chapters, last) : null;
  const shaping: MenuItem[] = [
    ...(up ? [{ id: "move-up", label: "Move up", hint: moveHint(up, tick - 1, "before"), onSelect: () => shape({ change: "move", scene: tick, place: up }) }] : []),
    ...(down ? [{ id: "move-down", label: "Move down", hint: moveHint(down, tick + 1, "after"), onSelect: () => shape({ change: "move", scene: tick, place: down }) }] : []),
    { id: "split", label: "Split at a paragraph…", hint: "The rest becomes the next scene", onSelect: () => openForm("split") },
    ...(tick < last ? [{ id: "merge", label: "Merge with the next scene", hint: `Scene ${tick + 1} joins this one`, onSelect: () => shape({ change: "merge", scene: tick }) }] : []),
    { id: "rename", label: "Rename…", onSelect: () => openForm("rename") },
    { id: "delete", label: "Delete scene", hint: "Undo brings it back", onSelect: () => shape({ change: "delete", scene: tick }) },
  ];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form === "rename") shape({ change: "rename", scene: tick, title });
    if (form === "split") shape({ change: "split", scene: tick, after_paragraph: after });
  };
  const items: MenuItem[] = [
    { id: "compare", label: "Compare across branches", hint: "This scene as each branch has it", onSelect: () => onPanel(scene.tick, "compare") },
    ...(running
      ? []
      : [
          ...(latest
            ? writable
              ? [{ id: "write-again", label: "Write this scene again", hint: "The current text stays as a version", onSelect: onWriteAgain }]
              : []
            : [{ id: "rewind", label: `Rewind to scene ${scene.tick}`, hint: "Later scenes are kept in a branch", onSelect: () => onRewind(scene.tick) }]),
          { id: "branch-from", label: "New branch from here…", hint: "What if the story went another way?", onSelect: () => onBranchFrom(scene.tick) },
          ...shaping,
        ]),
  ];
  return (
    <article className="scene" data-testid="scene" data-tick={scene.tick} id={`scene-${scene.tick}`} aria-labelledby={`scene-title-${scene.tick}`}>
      <header className="scene-head">
        <p className="eyebrow">Scene {scene.tick}</p>
        <h2 className="scene-title" id={`scene-title-${scene.tick}`} data-testid="scene-title">
          {scene.title}
        </h2>
        <p className="scene-meta">
          {[scene.pov && `${scene.pov}`, scene.location, plural(scene.word_count, "word")].filter(Boolean).join(" · ")}
        </p>
        {!editing && (
          <div className="scene-actions">
            <button type="button" className="btn btn-quiet btn-small" data-testid="edit-scene" onClick={() => onEdit(scene.tick)}>
              <Icon name="edit" size={15} /> Edit
            </button>
            <button
              type="button"
              className={`btn btn-quiet btn-small${panel === "versions" ? " on" : ""}`}
              data-testid="scene-versions"
              aria-expanded={panel === "versions"}
              onClick={() => onPanel(scene.tick, "versions")}
              title="Every version of this scene, side by side, with Restore"
            >
              <Icon name="history" size={15} /> Versions
            </button>
            <button
              type="button"
              className={`btn btn-quiet btn-small${panel === "checks" ? " on" : ""}`}
              data-testid="check-scene"
              aria-expanded={panel === "checks"}
              onClick={() => onPanel(scene.tick, "checks")}
              title="Run every check on this scene as it stands now: point of view, continuity, tense, length"
            >
              <Icon name="check" size={15} /> Check
            </button>
            <Menu label={<Icon name="more" size={16} />} title={`More for scene ${scene.tick}`} testId="scene-menu" items={items} />
          </div>
        )}
      </header>
      {form && (
        <form className="shape-form" data-testid={`scene-${form}-form`} onSubmit={submit}>
          {form === "rename" ? (
            <label className="field">
              <span>New title</span>
              <input type="text" data-testid="scene-rename-input" value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} autoFocus />
            </label>
          ) : (
            <label className="field">
              <span>Split after</span>
              <select data-testid="scene-split-at" value={after} onChange={(e) => setAfter(Number(e.target.value))} autoFocus>
                {paras.slice(0, -1).map((p, i) => (
                  <option key={i} value={i + 1}>
                    Paragraph {i + 1}: “{p.split(/\s+/).slice(0, 8).join(" ")}…”
                  </option>
                ))}
              </select>
            </label>
          )}
          {form === "split" && paras.length < 2 && <p className="muted">This scene is a single paragraph; there is nothing to split.</p>}
          {error && (
            <p className="field-error" role="alert" data-testid="shape-error">
              {error}
            </p>
          )}
          <div className="form-actions">
            <button type="button" className="btn btn-quiet btn-small" onClick={() => setForm(null)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary btn-small" data-testid="shape-submit" disabled={form === "split" && paras.length < 2}>
              {form === "rename" ? "Rename" : "Split"}
            </button>
          </div>
        </form>
      )}
      {!form && error && (
        <p className="field-error" role="alert" data-testid="shape-error">
          {error}
        </p>
      )}
      {panel === "versions" && <VersionsPanel tick={scene.tick} onClose={() => onPanel(scene.tick, "versions")} />}
      {panel === "checks" && <SceneChecks tick={scene.tick} onClose={() => onPanel(scene.tick, "checks")} />}
      {panel === "compare" && <BranchCompare tick={scene.tick} onClose={() => onPanel(scene.tick, "compare")} />}
      {editing ? (
        <SceneEditor
          scene={scene}
          onCancel={() => onEdit(null)}
          onSave={onSave}
          onSplit={running ? undefined : (prose, at) => onShape({ change: "split_at", scene: scene.tick, prose, at })}
        />
      ) : (
        <ReaderProse prose={scene.prose} highlights={highlights} />
      )}
    </article>
  );
});

// One scene in the reader: number, title, POV, place, word count and the prose as text (find
// matches and a searched passage marked in it);
// Edit turns the prose into the scene editor (editor/SceneEditor) with Save and Cancel. Versions opens
// the scene's versions under its heading, Check runs every check on it as it stands; the menu has the scene across branches, rewind to
// here, a new branch from here, and (on the latest scene) writing it again.
import { memo } from "react";
import { Icon } from "../components/Icon";
import { Menu } from "../components/Menu";
import type { MenuItem } from "../components/Menu";
import { plural } from "../lib/format";
import type { Highlight } from "../lib/textRanges";
import type { Scene } from "../lib/types";
import { BranchCompare } from "./BranchCompare";
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
}: Props) {
  const items: MenuItem[] = [
    { id: "compare", label: "Compare across branches", hint: "This scene as each branch has it", onSelect: () => onPanel(scene.tick, "compare") },
    ...(running
      ? []
      : [
          ...(latest
            ? [{ id: "write-again", label: "Write this scene again", hint: "The current text stays as a version", onSelect: onWriteAgain }]
            : [{ id: "rewind", label: `Rewind to scene ${scene.tick}`, hint: "Later scenes are kept in a branch", onSelect: () => onRewind(scene.tick) }]),
          { id: "branch-from", label: "New branch from here…", hint: "What if the story went another way?", onSelect: () => onBranchFrom(scene.tick) },
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
      {panel === "versions" && <VersionsPanel tick={scene.tick} onClose={() => onPanel(scene.tick, "versions")} />}
      {panel === "checks" && <SceneChecks tick={scene.tick} onClose={() => onPanel(scene.tick, "checks")} />}
      {panel === "compare" && <BranchCompare tick={scene.tick} onClose={() => onPanel(scene.tick, "compare")} />}
      {editing ? (
        <SceneEditor scene={scene} onCancel={() => onEdit(null)} onSave={onSave} />
      ) : (
        <ReaderProse prose={scene.prose} highlights={highlights} />
      )}
    </article>
  );
});

// One scene in the reader: number, title, POV, place, word count and the prose as text;
// Edit turns the prose into a textarea with Save (Ctrl+S) and Cancel (Escape).
import { memo, useState } from "react";
import { Icon } from "../components/Icon";
import { Prose } from "../components/Prose";
import { errorText } from "../lib/api";
import { plural, wordCount } from "../lib/format";
import type { Scene } from "../lib/types";

interface Props {
  scene: Scene;
  editing: boolean;
  onEdit: (tick: number | null) => void;
  onSave: (tick: number, prose: string) => Promise<void>;
}

export const SceneArticle = memo(function SceneArticle({ scene, editing, onEdit, onSave }: Props) {
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
          <button type="button" className="btn btn-quiet btn-small scene-edit" data-testid="edit-scene" onClick={() => onEdit(scene.tick)}>
            <Icon name="edit" size={15} /> Edit
          </button>
        )}
      </header>
      {editing ? (
        <SceneEditor scene={scene} onCancel={() => onEdit(null)} onSave={onSave} />
      ) : (
        <Prose text={scene.prose} testId="scene-prose" className="reading" />
      )}
    </article>
  );
});

function SceneEditor({ scene, onCancel, onSave }: { scene: Scene; onCancel: () => void; onSave: Props["onSave"] }) {
  const [text, setText] = useState(scene.prose);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (saving) return;
    if (text.trim() === "") {
      setError("A scene cannot be empty. Cancel to keep the current prose.");
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(scene.tick, text);
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };
  return (
    <div className="scene-editing">
      <textarea
        className="scene-editor reading"
        data-testid="scene-editor"
        aria-label={`Prose of scene ${scene.tick}`}
        value={text}
        rows={Math.min(40, Math.max(12, Math.round(text.length / 70)))}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && (e.key === "s" || e.key === "S")) {
            e.preventDefault();
            void save();
          } else if (e.key === "Escape") {
            e.preventDefault();
            onCancel();
          }
        }}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <span className="muted small">{plural(wordCount(text), "word")}</span>
        <button type="button" className="btn btn-quiet" data-testid="cancel-edit" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" data-testid="save-scene" disabled={saving} onClick={() => void save()} title="Save (Ctrl+S)">
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </div>
  );
}

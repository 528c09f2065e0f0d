// A scene the writer adds by hand between two scenes: its title and its prose in the same
// prose editor as a scene's edit, with Add and Cancel. The scenes after it move down one
// number. At the end of the book the agent can write the next scene instead (from a note, in
// Write); anywhere, AddSceneHere offers the agent's AgentSceneForm beside this one.
import { useState } from "react";
import { errorText } from "../../lib/api";
import { plural, wordCount } from "../../lib/format";
import { useNovel } from "../../lib/novel";
import { ProseEditor } from "./editor/ProseEditor";

interface Props {
  /** The number the new scene will have. */
  number: number;
  /** The place is the end of the book: the agent may write the scene instead. */
  atEnd: boolean;
  onAdd: (title: string, prose: string) => Promise<void>;
  onCancel: () => void;
  onAskAgent: () => void;
}

export function NewSceneForm({ number, atEnd, onAdd, onCancel, onAskAgent }: Props) {
  const { overview } = useNovel();
  const lang = overview?.foundation.language?.trim() || "en";
  const [title, setTitle] = useState("");
  const [prose, setProse] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const add = async () => {
    if (saving) return;
    if (title.trim() === "") return setError("Give the scene a title.");
    if (prose.trim() === "") return setError("Write the scene's prose first.");
    setSaving(true);
    setError(null);
    try {
      await onAdd(title, prose);
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };

  return (
    <section className="scene new-scene" data-testid="new-scene" aria-label={`New scene ${number}`}>
      <p className="eyebrow">New scene {number}</p>
      <label className="field">
        <span>Title</span>
        <input type="text" data-testid="new-scene-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={120} autoFocus />
      </label>
      <ProseEditor initial="" lang={lang} label={`Prose of the new scene ${number}`} onChange={setProse} onSave={() => void add()} onCancel={onCancel} />
      {error && (
        <p className="field-error" role="alert" data-testid="new-scene-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <span className="muted small">{plural(wordCount(prose), "word")}</span>
        {atEnd && (
          <button type="button" className="btn btn-quiet" data-testid="ask-agent" onClick={onAskAgent} title="Write gives the agent a note for the next scene">
            Ask the agent to write it
          </button>
        )}
        <button type="button" className="btn btn-quiet" data-testid="cancel-new-scene" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" data-testid="add-scene" disabled={saving} onClick={() => void add()} title="Add (Ctrl+S)">
          {saving ? "Adding…" : "Add the scene"}
        </button>
      </div>
    </section>
  );
}

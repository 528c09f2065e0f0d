// A scene the agent writes at a place in the book from the writer's note: the note, then
// "Write the scene". The agent reads the book up to the place and writes the scene there; the
// scenes after it move down one number, and the new scene is offered for a re-read like one
// written by hand. While it writes the form says so; a failure is said in the form and the book
// is unchanged.
import { useState } from "react";
import { commands } from "../../bindings";
import type { Place, Shaped_Serialize as Shaped } from "../../bindings";
import { call, errorText } from "../../lib/api";

interface Props {
  /** The number the new scene will have. */
  number: number;
  place: Place;
  onWritten: (shaped: Shaped) => void;
  onCancel: () => void;
}

export function AgentSceneForm({ number, place, onWritten, onCancel }: Props) {
  const [note, setNote] = useState("");
  const [writing, setWriting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const write = async () => {
    if (writing) return;
    if (note.trim() === "") return setError("Tell the agent what happens in the scene.");
    setWriting(true);
    setError(null);
    try {
      onWritten(await call(commands.writeSceneAt(place, note)));
    } catch (e) {
      setError(errorText(e));
      setWriting(false);
    }
  };

  return (
    <section className="scene new-scene" data-testid="agent-scene" aria-label={`New scene ${number}, written by the agent`} aria-busy={writing}>
      <label className="field">
        <span>What happens in scene {number}</span>
        <textarea
          data-testid="agent-scene-note"
          rows={3}
          value={note}
          disabled={writing}
          onChange={(e) => setNote(e.target.value)}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key === "Enter") void write();
          }}
          placeholder="Tamsin finds the tide table in the lamp room and hides it from Bram."
          autoFocus
        />
      </label>
      <p className="muted small">The agent reads the book up to here and writes the scene. The scenes after it move down one number.</p>
      {writing && (
        <p className="muted" role="status" data-testid="agent-scene-progress">
          The agent is writing scene {number} from your note…
        </p>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid="agent-scene-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" data-testid="cancel-agent-scene" disabled={writing} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" data-testid="agent-scene-write" disabled={writing} onClick={() => void write()} title="Write the scene (Ctrl+Enter)">
          {writing ? "Writing…" : "Write the scene"}
        </button>
      </div>
    </section>
  );
}

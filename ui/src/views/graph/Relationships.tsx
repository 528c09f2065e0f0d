// A character's relationships on its panel: each one with the other side, its kind and
// intensity, edited in place (kind, where it stands, intensity, and how each side sees the
// other); and a form to relate the character to someone new.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { JsonValue } from "../../bindings";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import type { Graph } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { FormError, useAction } from "../shared/edit";
import { EditRecordForm } from "../shared/RecordForm";

type Names = ReadonlyMap<string, string>;

/** "How Tamsin sees Bram": the perspective fields named after the two sides. */
export function perspectiveLabels(record: Record<string, JsonValue>, names: Names): Record<string, string> {
  const name = (key: string) => {
    const id = record[key];
    return typeof id === "string" ? (names.get(id) ?? id) : "?";
  };
  const [a, b] = [name("character_a"), name("character_b")];
  return { perspective_a: `How ${a} sees ${b}`, perspective_b: `How ${b} sees ${a}` };
}

function asRecord(value: JsonValue | undefined): Record<string, JsonValue> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? value : null;
}

/** Loads relationship `id` and edits it. */
function RelationshipEditor({ id, version, names, onDone }: { id: string; version: number; names: Names; onDone: () => void }) {
  const detail = useLoad(`relationship:${id}:${version}`, () => call(commands.entityDetail(id)));
  if (detail.error !== undefined) return <LoadError error={detail.error} onRetry={detail.reload} />;
  const record = asRecord(detail.data?.record);
  if (!detail.data || !record) return <p className="loading small">Loading…</p>;
  return <EditRecordForm id={id} kind="relationship" record={record} history={detail.data.history} labels={perspectiveLabels(record, names)} onDone={onDone} />;
}

function AddRelationship({ id, graph, names, onDone }: { id: string; graph: Graph; names: Names; onDone: () => void }) {
  const notify = useToast();
  const related = new Set(graph.edges.filter((e) => e.kind === "relationship" && (e.source === id || e.target === id)).flatMap((e) => [e.source, e.target]));
  const others = graph.nodes.filter((n) => n.kind === "character" && n.id !== id && !related.has(n.id));
  const [other, setOther] = useState(others[0]?.id ?? "");
  const [kind, setKind] = useState("");
  const [status, setStatus] = useState("");
  const [intensity, setIntensity] = useState("5");
  const [mine, setMine] = useState("");
  const [theirs, setTheirs] = useState("");
  const action = useAction();
  const me = names.get(id) ?? id;
  const them = names.get(other) ?? "the other";
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      await call(
        commands.addRecord({
          record: "relationship",
          character_a: id,
          character_b: other,
          kind: kind.trim(),
          status: status.trim() || null,
          intensity: intensity.trim() === "" ? null : Number(intensity),
          perspective_a: mine.trim(),
          perspective_b: theirs.trim(),
        }),
      );
      notify(`${me} and ${them} are related now.`);
    });
    if (ok) onDone();
  };
  if (others.length === 0) {
    return (
      <p className="muted small" data-testid="relationship-none">
        {me} already has a relationship with every other character. <button type="button" className="btn btn-small btn-quiet" onClick={onDone}>Close</button>
      </p>
    );
  }
  return (
    <form className="card bible-form" onSubmit={(e) => void submit(e)} data-testid="relationship-form" noValidate>
      <div className="bible-fields">
        <div className="field">
          <label htmlFor="relationship-other">With</label>
          <select id="relationship-other" data-testid="relationship-other" value={other} onChange={(e) => setOther(e.target.value)}>
            {others.map((n) => (
              <option key={n.id} value={n.id}>
                {n.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="relationship-kind">Kind</label>
          <input id="relationship-kind" data-testid="relationship-kind" placeholder="ally, rival, family…" value={kind} onChange={(e) => setKind(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="relationship-status">Where it stands</label>
          <input id="relationship-status" data-testid="relationship-status" placeholder="new" value={status} onChange={(e) => setStatus(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="relationship-intensity">Intensity (1–10)</label>
          <input id="relationship-intensity" data-testid="relationship-intensity" type="number" min={1} max={10} value={intensity} onChange={(e) => setIntensity(e.target.value)} />
        </div>
        <div className="field field-wide">
          <label htmlFor="relationship-mine">
            How {me} sees {them}
          </label>
          <textarea id="relationship-mine" data-testid="relationship-mine" rows={2} value={mine} onChange={(e) => setMine(e.target.value)} />
        </div>
        <div className="field field-wide">
          <label htmlFor="relationship-theirs">
            How {them} sees {me}
          </label>
          <textarea id="relationship-theirs" data-testid="relationship-theirs" rows={2} value={theirs} onChange={(e) => setTheirs(e.target.value)} />
        </div>
      </div>
      <FormError error={action.error} testId="relationship-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="relationship-add">
          Add relationship
        </button>
      </div>
    </form>
  );
}

export function Relationships({ id, graph, names, version }: { id: string; graph: Graph; names: Names; version: number }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const edges = graph.edges.filter((e) => e.kind === "relationship" && (e.source === id || e.target === id));
  return (
    <section className="panel-section" aria-labelledby="relationships-title" data-testid="relationships">
      <div className="section-head">
        <h3 id="relationships-title">Relationships</h3>
        {!adding && (
          <button type="button" className="btn btn-small btn-quiet" data-testid="relationship-new" onClick={() => setAdding(true)}>
            Add relationship
          </button>
        )}
      </div>
      {adding && <AddRelationship id={id} graph={graph} names={names} onDone={() => setAdding(false)} />}
      {edges.length === 0 ? (
        <p className="muted small">No relationships yet.</p>
      ) : (
        <ul className="panel-list">
          {edges.map((e) => {
            const other = e.source === id ? e.target : e.source;
            return (
              <li key={e.id} data-testid="relationship" data-id={e.id}>
                <div className="panel-row">
                  <span>
                    <strong>{names.get(other) ?? other}</strong> <span className="muted small">{e.label}</span>
                    {e.intensity !== null && <span className="badge badge-note">{e.intensity}/10</span>}
                  </span>
                  {editing !== e.id && (
                    <button type="button" className="btn btn-small btn-quiet" data-testid="relationship-edit" onClick={() => setEditing(e.id)}>
                      Edit
                    </button>
                  )}
                </div>
                {editing === e.id && <RelationshipEditor id={e.id} version={version} names={names} onDone={() => setEditing(null)} />}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

// The side panel of the graph: one entity's record, field by field, and its history by
// tick, with contradictions (recorded, not applied) highlighted; characters, places and
// relationships can be edited in place, a character's relationships and a place's connections
// added and changed from their sections; a character or place opens its codex page.
import { useState } from "react";
import { commands } from "../../bindings";
import type { Knowledge_Serialize as Knowledge } from "../../bindings";
import { Icon } from "../../components/Icon";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { useLoad } from "../../lib/useLoad";
import { Connections } from "./Connections";
import { EditRecordForm, writerFields } from "../shared/RecordForm";
import { perspectiveLabels, Relationships } from "./Relationships";
import { EntityHistory } from "./EntityHistory";
import { human, Value } from "./RecordValue";
import type { Names } from "./RecordValue";
import "../../styles/bible.css";

const HIDDEN_FIELDS = new Set(["id", "name"]);

const KINDS: Record<string, string> = { character: "Character", location: "Place", relationship: "Relationship" };

function kindLabel(kind: string): string {
  return KINDS[kind] ?? human(kind);
}

interface Props {
  id: string;
  version: number;
  names: Names;
  onClose: () => void;
  /** Opens the codex page of a character or place. */
  onOpenCodex?: (id: string) => void;
}

export function EntityPanel({ id, version, names, onClose, onOpenCodex }: Props) {
  const detail = useLoad(`entity:${id}:${version}`, () => call(commands.entityDetail(id)));
  const d = detail.data && detail.data.id === id ? detail.data : undefined;
  const [editing, setEditing] = useState<string | null>(null);
  const editable = d && (d.kind === "character" || d.kind === "location" || d.kind === "relationship") ? d.kind : null;
  // The graph names the character's relationships and the place's connections (and who or
  // where else there is to link to).
  const linked = d && (d.kind === "character" || d.kind === "location") ? d.kind : null;
  const graph = useLoad(linked ? `panel-graph:${id}:${version}` : null, () => call(commands.storyGraph()));
  const overridden = d ? writerFields(d.history) : new Set<string>();
  const fields =
    d && d.record && typeof d.record === "object" && !Array.isArray(d.record)
      ? Object.entries(d.record).filter(([k]) => !HIDDEN_FIELDS.has(k))
      : [];
  // A relationship's perspectives are named after its two sides ("How Tamsin sees Bram").
  const fieldLabels = d?.kind === "relationship" && d.record && typeof d.record === "object" && !Array.isArray(d.record) ? perspectiveLabels(d.record, names) : undefined;
  return (
    <aside className="entity-panel" data-testid="entity-panel" aria-label="Details">
      <div className="panel-head">
        <div>
          {/* The kind in words; the id is the engine's, not the writer's. */}
          <p className="eyebrow">{d ? kindLabel(d.kind) : "\u00a0"}</p>
          <h2>{d ? d.name : detail.error !== undefined ? "Not found" : "Loading…"}</h2>
        </div>
        {editable && editing !== id && (
          <button type="button" className="icon-btn" onClick={() => setEditing(id)} aria-label="Edit" title="Edit" data-testid="edit-entity">
            <Icon name="edit" />
          </button>
        )}
        <button type="button" className="icon-btn" onClick={onClose} aria-label="Close the details" data-testid="close-entity">
          <Icon name="close" />
        </button>
      </div>
      {detail.error !== undefined && <LoadError error={detail.error} onRetry={detail.reload} />}
      {d && editable && editing === id && d.record && typeof d.record === "object" && !Array.isArray(d.record) && (
        <EditRecordForm
          id={d.id}
          kind={editable}
          record={d.record}
          history={d.history}
          labels={editable === "relationship" ? perspectiveLabels(d.record, names) : undefined}
          onDone={() => setEditing(null)}
        />
      )}
      {d && editing !== id && (
        <>
          {onOpenCodex && linked && (
            <button type="button" className="btn btn-small btn-quiet codex-link" onClick={() => onOpenCodex(d.id)} data-testid="open-codex">
              Open the codex page
            </button>
          )}
          <dl className="record">
            {fields.map(([k, v]) => (
              <div key={k} className="record-field">
                <dt>
                  {fieldLabels?.[k] ?? human(k)}
                  {overridden.has(k) && (
                    <span className="badge badge-note writer-mark" title="You changed this field">
                      yours
                    </span>
                  )}
                </dt>
                <dd>
                  <Value value={v} names={names} />
                </dd>
              </div>
            ))}
          </dl>
          {graph.error !== undefined && <LoadError error={graph.error} onRetry={graph.reload} />}
          {graph.data && linked === "character" && <Relationships id={d.id} graph={graph.data} names={names} version={version} />}
          {graph.data && linked === "location" && <Connections id={d.id} graph={graph.data} names={names} />}
          {d.knowledge && <KnowledgeSection knowledge={d.knowledge} name={d.name} />}
          <h3>History</h3>
          {d.history.length === 0 ? <p className="muted small">No changes recorded yet.</p> : <EntityHistory items={d.history} names={names} />}
        </>
      )}
    </aside>
  );
}

/** What a character has witnessed (the scenes they were in) and which deaths on the page they
 *  know of: the knowledge the checks hold the point of view to. */
function KnowledgeSection({ knowledge, name }: { knowledge: Knowledge; name: string }) {
  const first = name.split(" ")[0] || name;
  return (
    <section className="knowledge" data-testid="entity-knowledge" aria-label={`What ${first} knows`}>
      <h3>What {first} knows</h3>
      <p className="small" data-testid="knowledge-scenes">
        {knowledge.scenes.length === 0 ? "In no scene yet." : `In ${knowledge.scenes.length === 1 ? "scene" : "scenes"} ${knowledge.scenes.join(", ")}.`}
      </p>
      {knowledge.deaths.length > 0 && (
        <ul className="knowledge-deaths">
          {knowledge.deaths.map((k) => (
            <li key={k.character_id} data-testid="knowledge-death" data-known={k.learned ? k.learned[1] : "no"}>
              {k.character_name} died in scene {k.died}:{" "}
              {k.learned === null ? (
                <strong>{first} has not seen or heard of it</strong>
              ) : k.learned[1] === "witnessed" ? (
                `${first} saw it`
              ) : (
                `${first} learned of it in scene ${k.learned[0]}`
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// A place's connections on its panel: the places reachable from it (with the way between, "a
// flooded stair"), each removable after a confirmation, and a form to connect it to another
// place. Removing a way is the writer's call: the agent only ever adds them.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import type { Graph } from "../../lib/types";
import { FormError, useAction } from "../shared/edit";

type Names = ReadonlyMap<string, string>;

function Connect({ id, graph, names, onDone }: { id: string; graph: Graph; names: Names; onDone: () => void }) {
  const notify = useToast();
  const linked = new Set(graph.edges.filter((e) => e.kind === "connection" && (e.source === id || e.target === id)).flatMap((e) => [e.source, e.target]));
  const others = graph.nodes.filter((n) => n.kind === "location" && n.id !== id && !linked.has(n.id));
  const [other, setOther] = useState(others[0]?.id ?? "");
  const [description, setDescription] = useState("");
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      await call(commands.changeConnection({ op: "connect", a: id, b: other, description: description.trim() }));
      notify(`${names.get(id) ?? id} now leads to ${names.get(other) ?? other}.`);
    });
    if (ok) onDone();
  };
  if (others.length === 0) {
    return (
      <p className="muted small" data-testid="connection-none">
        Every other place is connected already. <button type="button" className="btn btn-small btn-quiet" onClick={onDone}>Close</button>
      </p>
    );
  }
  return (
    <form className="card bible-form" onSubmit={(e) => void submit(e)} data-testid="connection-form" noValidate>
      <div className="bible-fields">
        <div className="field">
          <label htmlFor="connection-other">Leads to</label>
          <select id="connection-other" data-testid="connection-other" value={other} onChange={(e) => setOther(e.target.value)}>
            {others.map((n) => (
              <option key={n.id} value={n.id}>
                {n.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="connection-description">The way (optional)</label>
          <input id="connection-description" data-testid="connection-description" placeholder="how one gets from one to the other" value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
      </div>
      <FormError error={action.error} testId="connection-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="connection-add">
          Connect
        </button>
      </div>
    </form>
  );
}

function ConnectionRow({ id, other, label, names }: { id: string; other: string; label: string; names: Names }) {
  const notify = useToast();
  const [confirm, setConfirm] = useState(false);
  const action = useAction();
  const remove = () =>
    void action.run(async () => {
      await call(commands.changeConnection({ op: "disconnect", a: id, b: other }));
      notify("Connection removed (a rewind brings it back).");
    });
  return (
    <li data-testid="connection" data-other={other}>
      <div className="panel-row">
        <span>
          <strong>{names.get(other) ?? other}</strong> <span className="muted small">{label}</span>
        </span>
        {confirm ? (
          <span className="button-row" role="group" aria-label="Confirm removal">
            <button type="button" className="btn btn-small btn-quiet" onClick={() => setConfirm(false)}>
              Keep
            </button>
            <button type="button" className="btn btn-small btn-danger" disabled={action.busy} data-testid="connection-remove-confirm" onClick={remove}>
              Remove
            </button>
          </span>
        ) : (
          <button type="button" className="btn btn-small btn-danger-quiet" data-testid="connection-remove" onClick={() => setConfirm(true)}>
            Remove
          </button>
        )}
      </div>
      <FormError error={action.error} testId="connection-error" />
    </li>
  );
}

export function Connections({ id, graph, names }: { id: string; graph: Graph; names: Names }) {
  const [adding, setAdding] = useState(false);
  const edges = graph.edges.filter((e) => e.kind === "connection" && (e.source === id || e.target === id));
  return (
    <section className="panel-section" aria-labelledby="connections-title" data-testid="connections">
      <div className="section-head">
        <h3 id="connections-title">Connections</h3>
        {!adding && (
          <button type="button" className="btn btn-small btn-quiet" data-testid="connection-new" onClick={() => setAdding(true)}>
            Connect a place
          </button>
        )}
      </div>
      {adding && <Connect id={id} graph={graph} names={names} onDone={() => setAdding(false)} />}
      {edges.length === 0 ? (
        <p className="muted small">No ways to other places recorded.</p>
      ) : (
        <ul className="panel-list">
          {edges.map((e) => {
            const other = e.source === id ? e.target : e.source;
            return <ConnectionRow key={e.id} id={id} other={other} label={e.label} names={names} />;
          })}
        </ul>
      )}
    </section>
  );
}

// Lore: every world fact with its keywords, aliases and importance; add, edit, and delete
// (after a confirmation), and open its codex page.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { Importance, LoreFact_Serialize as LoreFact } from "../../bindings";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import { FormError, joinList, splitList, useAction } from "../shared/edit";
import { IMPORTANCE } from "../shared/LoopActions";

export function LoreForm({ fact, onDone }: { fact: LoreFact | null; onDone: () => void }) {
  const notify = useToast();
  const [text, setText] = useState(fact?.fact ?? "");
  const [category, setCategory] = useState(fact?.category ?? "");
  const [importance, setImportance] = useState<Importance>(fact?.importance ?? "medium");
  const [keywords, setKeywords] = useState(joinList(fact?.keywords));
  const [aliases, setAliases] = useState(joinList(fact?.aliases));
  const [alwaysOn, setAlwaysOn] = useState(fact?.always_on ?? false);
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = { fact: text.trim(), category: category.trim(), importance, keywords: splitList(keywords), aliases: splitList(aliases), always_on: alwaysOn };
    const ok = await action.run(async () => {
      if (fact) await call(commands.editLore(fact.id, fields));
      else await call(commands.addRecord({ record: "lore", ...fields }));
      notify(fact ? "Lore saved." : "Lore added.");
    });
    if (ok) onDone();
  };
  return (
    <form className="card bible-form" onSubmit={(e) => void submit(e)} data-testid="lore-form" noValidate>
      <div className="field field-wide">
        <label htmlFor="lore-fact">Fact</label>
        <textarea id="lore-fact" data-testid="lore-fact" rows={2} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="bible-fields">
        <div className="field">
          <label htmlFor="lore-category">Category</label>
          <input id="lore-category" data-testid="lore-category" placeholder="magic, history, custom…" value={category} onChange={(e) => setCategory(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="lore-importance">Importance</label>
          <select id="lore-importance" data-testid="lore-importance" value={importance} onChange={(e) => setImportance(e.target.value as Importance)}>
            {IMPORTANCE.map((i) => (
              <option key={i}>{i}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="lore-keywords">Keywords</label>
          <input id="lore-keywords" data-testid="lore-keywords" value={keywords} onChange={(e) => setKeywords(e.target.value)} />
          <p className="field-hint">Comma-separated: words that bring the fact back into a scene.</p>
        </div>
        <div className="field">
          <label htmlFor="lore-aliases">Aliases</label>
          <input id="lore-aliases" data-testid="lore-aliases" value={aliases} onChange={(e) => setAliases(e.target.value)} />
        </div>
      </div>
      <label className="check">
        <input type="checkbox" data-testid="lore-always" checked={alwaysOn} onChange={(e) => setAlwaysOn(e.target.checked)} /> In every scene's context
      </label>
      <FormError error={action.error} testId="lore-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="lore-save">
          {fact ? "Save" : "Add lore"}
        </button>
      </div>
    </form>
  );
}

function LoreRow({ fact, onOpen }: { fact: LoreFact; onOpen?: (id: string) => void }) {
  const notify = useToast();
  const [mode, setMode] = useState<"view" | "edit" | "confirm">("view");
  const action = useAction();
  if (mode === "edit") return <LoreForm fact={fact} onDone={() => setMode("view")} />;
  const remove = () =>
    void action.run(async () => {
      await call(commands.deleteLore(fact.id));
      notify("Lore deleted.");
    });
  return (
    <li className="card lore-row" data-testid="lore-row" data-id={fact.id}>
      <div className="lore-head">
        <span className={`badge badge-importance-${fact.importance}`}>{fact.importance}</span>
        {fact.category && <span className="muted small">{fact.category}</span>}
        {fact.always_on && <span className="badge badge-accent">always on</span>}
      </div>
      <p className="lore-fact">{fact.fact}</p>
      {(fact.keywords.length > 0 || fact.aliases.length > 0) && (
        <p className="muted small">
          {fact.keywords.length > 0 && <>Keywords: {joinList(fact.keywords)}</>}
          {fact.keywords.length > 0 && fact.aliases.length > 0 && " · "}
          {fact.aliases.length > 0 && <>Aliases: {joinList(fact.aliases)}</>}
        </p>
      )}
      <FormError error={action.error} testId="lore-error" />
      {mode === "confirm" ? (
        <div className="lore-actions confirm" role="group" aria-label="Confirm deletion">
          <span className="small">Delete this fact? A rewind brings it back.</span>
          <button type="button" className="btn btn-small btn-quiet" onClick={() => setMode("view")}>
            Keep
          </button>
          <button type="button" className="btn btn-small btn-danger" disabled={action.busy} data-testid="lore-delete-confirm" onClick={remove}>
            Delete
          </button>
        </div>
      ) : (
        <div className="lore-actions">
          {onOpen && (
            <button type="button" className="btn btn-small btn-quiet" data-testid="lore-open" onClick={() => onOpen(fact.id)}>
              Open page
            </button>
          )}
          <button type="button" className="btn btn-small btn-quiet" data-testid="lore-edit" onClick={() => setMode("edit")}>
            Edit
          </button>
          <button type="button" className="btn btn-small btn-danger-quiet" data-testid="lore-delete" onClick={() => setMode("confirm")}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}

export function LorePanel({ lore, onOpen }: { lore: LoreFact[]; onOpen?: (id: string) => void }) {
  const [adding, setAdding] = useState(false);
  return (
    <section className="bible-section" aria-labelledby="lore-title">
      <div className="section-head">
        <h2 id="lore-title" data-testid="lore-title">
          Lore <span className="muted">{lore.length}</span>
        </h2>
        {!adding && (
          <button type="button" className="btn btn-quiet" data-testid="lore-add" onClick={() => setAdding(true)}>
            Add lore
          </button>
        )}
      </div>
      {adding && <LoreForm fact={null} onDone={() => setAdding(false)} />}
      {lore.length === 0 && !adding ? (
        <p className="muted">No lore yet. Facts about the world (its magic, history, customs) come back into a scene when their keywords do.</p>
      ) : (
        <ul className="lore-list">
          {lore.map((f) => (
            <LoreRow key={f.id} fact={f} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </section>
  );
}

// The writer's hand on the loops: resolve, abandon or reopen a card (with an optional note),
// edit its words, category and importance, or open a new loop from the board.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { Importance, LoopAction } from "../../bindings";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import type { Loop } from "../../lib/types";
import { FormError, useAction } from "./edit";

export const IMPORTANCE: Importance[] = ["critical", "high", "medium", "low"];

const DONE: Record<LoopAction, string> = { resolve: "resolved", abandon: "abandoned", reopen: "reopened" };

export function LoopActions({ loop }: { loop: Loop }) {
  const notify = useToast();
  const [mode, setMode] = useState<"idle" | LoopAction | "edit">("idle");
  const [note, setNote] = useState("");
  const [description, setDescription] = useState(loop.description);
  const [category, setCategory] = useState(loop.category);
  const [importance, setImportance] = useState<Importance>(loop.importance);
  const action = useAction();

  const act = async (e: FormEvent) => {
    e.preventDefault();
    if (mode === "idle") return;
    const ok = await action.run(async () => {
      if (mode === "edit") {
        await call(commands.editLoop(loop.id, { description, category, importance }));
        notify("Loop saved.");
      } else {
        await call(commands.actOnLoop(loop.id, mode, note.trim()));
        notify(`Loop ${DONE[mode]}.`);
      }
    });
    if (ok) setMode("idle");
  };

  if (mode === "idle") {
    const actions: LoopAction[] = loop.status === "open" ? ["resolve", "abandon"] : ["reopen"];
    return (
      <div className="loop-actions">
        {actions.map((a) => (
          <button key={a} type="button" className="btn btn-small btn-quiet" data-testid={`loop-${a}`} onClick={() => setMode(a)}>
            {a.charAt(0).toUpperCase() + a.slice(1)}
          </button>
        ))}
        <button type="button" className="btn btn-small btn-quiet" data-testid="loop-edit" onClick={() => setMode("edit")}>
          Edit
        </button>
      </div>
    );
  }
  return (
    <form className="loop-action-form" onSubmit={(e) => void act(e)} data-testid="loop-form">
      {mode === "edit" ? (
        <>
          <label className="sr-label" htmlFor={`loop-desc-${loop.id}`}>
            Description
          </label>
          <textarea id={`loop-desc-${loop.id}`} data-testid="loop-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
          <div className="field-row">
            <input aria-label="Category" data-testid="loop-category" value={category} onChange={(e) => setCategory(e.target.value)} />
            <select aria-label="Importance" data-testid="loop-importance" value={importance} onChange={(e) => setImportance(e.target.value as Importance)}>
              {IMPORTANCE.map((i) => (
                <option key={i}>{i}</option>
              ))}
            </select>
          </div>
        </>
      ) : (
        <input aria-label="Note (optional)" placeholder="Note (optional): how it ended" data-testid="loop-note" value={note} onChange={(e) => setNote(e.target.value)} />
      )}
      <FormError error={action.error} testId="loop-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setMode("idle")}>
          Cancel
        </button>
        <button type="submit" className="btn btn-small btn-primary" disabled={action.busy} data-testid="loop-confirm">
          {mode === "edit" ? "Save" : mode.charAt(0).toUpperCase() + mode.slice(1)}
        </button>
      </div>
    </form>
  );
}

/** Opens a new loop: the question or promise, its category and importance. */
export function NewLoopForm({ onDone }: { onDone: () => void }) {
  const notify = useToast();
  const [description, setDescription] = useState("");
  const [category, setCategory] = useState("");
  const [importance, setImportance] = useState<Importance>("medium");
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      const id = await call(commands.addRecord({ record: "loop", description: description.trim(), category: category.trim() || "conflict", importance }));
      notify(`Loop ${id} opened.`);
    });
    if (ok) onDone();
  };
  return (
    <form className="card bible-form new-loop" onSubmit={(e) => void submit(e)} data-testid="new-loop-form" noValidate>
      <div className="field field-wide">
        <label htmlFor="new-loop-description">The open question or promise</label>
        <textarea
          id="new-loop-description"
          data-testid="new-loop-description"
          rows={2}
          placeholder="A question the story has raised, or a promise it has made"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="field-row">
        <input aria-label="Category" placeholder="mystery, promise, threat… (default: conflict)" data-testid="new-loop-category" value={category} onChange={(e) => setCategory(e.target.value)} />
        <select aria-label="Importance" data-testid="new-loop-importance" value={importance} onChange={(e) => setImportance(e.target.value as Importance)}>
          {IMPORTANCE.map((i) => (
            <option key={i}>{i}</option>
          ))}
        </select>
      </div>
      <FormError error={action.error} testId="new-loop-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="new-loop-save">
          Open loop
        </button>
      </div>
    </form>
  );
}

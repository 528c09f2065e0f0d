// Forms for a character or a place: edit the fields a writer cares about (what the writer
// already overrode is marked), or add a new one. Facts are `key: value` lines; changing an
// established fact is applied and flagged in the history, since the story is the writer's.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { JsonValue } from "../../bindings";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import type { HistoryItem } from "../../lib/types";
import { FormError, joinList, splitList, useAction } from "./edit";

export type RecordKind = "character" | "location";

interface FieldSpec {
  key: string;
  label: string;
  kind: "text" | "long" | "list" | "facts" | "number";
  hint?: string;
}

const FIELDS: Record<RecordKind, FieldSpec[]> = {
  character: [
    { key: "name", label: "Name", kind: "text" },
    { key: "role", label: "Role", kind: "text" },
    { key: "description", label: "Description", kind: "long" },
    { key: "emotional_state", label: "Emotional state", kind: "text" },
    { key: "aliases", label: "Aliases", kind: "list", hint: "Comma-separated." },
    { key: "personality", label: "Personality", kind: "list" },
    { key: "goals", label: "Goals", kind: "list" },
    { key: "fears", label: "Fears", kind: "list" },
    { key: "inventory", label: "Inventory", kind: "list" },
    { key: "facts", label: "Facts", kind: "facts", hint: "One per line: brother: alive" },
  ],
  location: [
    { key: "name", label: "Name", kind: "text" },
    { key: "description", label: "Description", kind: "long" },
    { key: "tension_level", label: "Tension (1–5)", kind: "number" },
    { key: "aliases", label: "Aliases", kind: "list", hint: "Comma-separated." },
    { key: "sensory", label: "Sensory details", kind: "list" },
    { key: "threats", label: "Threats", kind: "list" },
    { key: "facts", label: "Facts", kind: "facts", hint: "One per line: gate: sealed" },
  ],
};

type Values = Record<string, string>;

function toText(spec: FieldSpec, value: JsonValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (spec.kind === "list" && Array.isArray(value)) return joinList(value.map(String));
  if (spec.kind === "facts" && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join("\n");
  }
  return String(value);
}

function parseFacts(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const key = line.slice(0, i).trim();
    const value = line.slice(i + 1).trim();
    if (key && value) out[key] = value;
  }
  return out;
}

function fromText(spec: FieldSpec, text: string): JsonValue {
  switch (spec.kind) {
    case "list":
      return splitList(text);
    case "facts":
      return parseFacts(text);
    case "number":
      return text.trim() === "" ? null : Number(text);
    default:
      return text.trim() === "" && spec.key !== "name" ? null : text.trim();
  }
}

function initial(kind: RecordKind, record: Record<string, JsonValue> | null): Values {
  return Object.fromEntries(FIELDS[kind].map((f) => [f.key, toText(f, record?.[f.key])]));
}

function Inputs({ kind, values, set, overridden }: { kind: RecordKind; values: Values; set: (k: string, v: string) => void; overridden: Set<string> }) {
  return (
    <div className="bible-fields">
      {FIELDS[kind].map((f) => {
        const id = `record-${f.key}`;
        const mark = overridden.has(f.key);
        return (
          <div key={f.key} className={`field${f.kind === "long" || f.kind === "facts" ? " field-wide" : ""}`}>
            <label htmlFor={id}>
              {f.label}
              {mark && (
                <span className="badge badge-note writer-mark" title="You changed this field" data-testid={`overridden-${f.key}`}>
                  yours
                </span>
              )}
            </label>
            {f.kind === "long" || f.kind === "facts" ? (
              <textarea id={id} data-testid={id} rows={f.kind === "facts" ? 3 : 3} value={values[f.key]} onChange={(e) => set(f.key, e.target.value)} />
            ) : (
              <input id={id} data-testid={id} type={f.kind === "number" ? "number" : "text"} value={values[f.key]} onChange={(e) => set(f.key, e.target.value)} />
            )}
            {f.hint && <p className="field-hint">{f.hint}</p>}
          </div>
        );
      })}
    </div>
  );
}

/** The top-level fields the writer has changed, from the record's history. */
export function writerFields(history: HistoryItem[]): Set<string> {
  return new Set(history.filter((h) => h.source === "writer").map((h) => h.field.split(".")[0]));
}

interface EditProps {
  id: string;
  kind: RecordKind;
  record: Record<string, JsonValue>;
  history: HistoryItem[];
  onDone: () => void;
}

/** Edits an existing character or place; sends only the fields that changed. */
export function EditRecordForm({ id, kind, record, history, onDone }: EditProps) {
  const notify = useToast();
  const [values, setValues] = useState<Values>(() => initial(kind, record));
  const start = initial(kind, record);
  const action = useAction();
  const overridden = writerFields(history);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const changes: Record<string, JsonValue> = {};
    for (const f of FIELDS[kind]) {
      if (values[f.key] !== start[f.key]) changes[f.key] = fromText(f, values[f.key]);
    }
    if (Object.keys(changes).length === 0) return onDone();
    const ok = await action.run(async () => {
      const report = await call(commands.editRecord(id, { changes, append: {} }));
      const flagged = report.contradictions.length;
      notify(flagged > 0 ? `Saved; ${flagged} established fact${flagged === 1 ? "" : "s"} changed and flagged in the history.` : "Saved.");
    });
    if (ok) onDone();
  };

  return (
    <form className="card bible-form" onSubmit={(e) => void submit(e)} data-testid="record-form" noValidate>
      <Inputs kind={kind} values={values} set={(k, v) => setValues((s) => ({ ...s, [k]: v }))} overridden={overridden} />
      <FormError error={action.error} testId="record-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="record-save">
          Save changes
        </button>
      </div>
    </form>
  );
}

/** Adds a character or a place. */
export function AddRecordForm({ kind, onDone }: { kind: RecordKind; onDone: (id: string | null) => void }) {
  const notify = useToast();
  const [values, setValues] = useState<Values>(() => initial(kind, null));
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let newId: string | null = null;
    const ok = await action.run(async () => {
      const v = (key: string) => values[key]?.trim() ?? "";
      const facts = parseFacts(values.facts ?? "");
      newId = await call(
        commands.addRecord(
          kind === "character"
            ? {
                kind: "character",
                name: v("name"),
                role: v("role"),
                description: v("description"),
                personality: splitList(v("personality")),
                goals: splitList(v("goals")),
                fears: splitList(v("fears")),
                inventory: splitList(v("inventory")),
                aliases: splitList(v("aliases")),
                location: null,
                emotional_state: v("emotional_state") || null,
                want: "",
                need: "",
                facts,
              }
            : {
                kind: "location",
                name: v("name"),
                description: v("description"),
                sensory: splitList(v("sensory")),
                threats: splitList(v("threats")),
                inhabitants: [],
                tension_level: v("tension_level") ? Number(v("tension_level")) : null,
                connections: [],
                aliases: splitList(v("aliases")),
                facts,
              },
        ),
      );
      notify(`${kind === "character" ? "Character" : "Place"} ${v("name")} added.`);
    });
    if (ok) onDone(newId);
  };
  return (
    <form className="card bible-form" onSubmit={(e) => void submit(e)} data-testid={`add-${kind}-form`} noValidate>
      <h3>{kind === "character" ? "New character" : "New place"}</h3>
      <Inputs kind={kind} values={values} set={(k, v) => setValues((s) => ({ ...s, [k]: v }))} overridden={new Set()} />
      <FormError error={action.error} testId="record-error" />
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="record-add">
          Add {kind === "character" ? "character" : "place"}
        </button>
      </div>
    </form>
  );
}

// Forms for a character, a place or a relationship: edit the fields a writer cares about (what
// the writer already overrode is marked), or add a new character or place. Facts are
// `key: value` lines; changing an established fact (a dead character brought back) is applied
// and flagged in the history, since the story is the writer's. Nested fields (the arc) are
// sent as nested changes, which the engine deep-merges.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { JsonValue, NamedSource } from "../../bindings";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import type { HistoryItem } from "../../lib/types";
import { FormError, joinList, splitList, useAction } from "./edit";
import { ListEditor } from "./ListEditor";

export type RecordKind = "character" | "location" | "relationship";

interface FieldSpec {
  /** The record's field; `arc.want` is `want` inside `arc`. */
  key: string;
  label: string;
  kind: "text" | "long" | "list" | "items" | "facts" | "number" | "choice";
  hint?: string;
  options?: string[];
  /** Shown when editing only (a new record has no such field). */
  editOnly?: boolean;
}

const FIELDS: Record<RecordKind, FieldSpec[]> = {
  character: [
    { key: "name", label: "Name", kind: "text" },
    { key: "role", label: "Role", kind: "text" },
    { key: "status", label: "Alive or dead", kind: "choice", options: ["alive", "dead", "unknown"], editOnly: true },
    { key: "description", label: "Description", kind: "long" },
    { key: "emotional_state", label: "Emotional state", kind: "text" },
    { key: "aliases", label: "Aliases", kind: "items", hint: "Other names or titles; each may hold commas." },
    { key: "arc.want", label: "Arc: wants", kind: "text", hint: "The outer goal." },
    { key: "arc.need", label: "Arc: needs", kind: "text", hint: "The inner lack." },
    { key: "arc.phase", label: "Arc: phase", kind: "text", hint: "Where they are on the way.", editOnly: true },
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
    { key: "aliases", label: "Aliases", kind: "items" },
    { key: "sensory", label: "Sensory details", kind: "list" },
    { key: "threats", label: "Threats", kind: "list" },
    { key: "facts", label: "Facts", kind: "facts", hint: "One per line: gate: sealed" },
  ],
  relationship: [
    { key: "kind", label: "Kind", kind: "text", hint: "ally, rival, family, mentor, …" },
    { key: "status", label: "Where it stands", kind: "text", hint: "trusting, strained, broken, …" },
    { key: "intensity", label: "Intensity (1–10)", kind: "number" },
    { key: "perspective_a", label: "How the first sees the second", kind: "long" },
    { key: "perspective_b", label: "How the second sees the first", kind: "long" },
  ],
};

type Values = Record<string, string>;

/** An `items` field's text: one item a line (an alias may hold a comma). */
const ITEM_SEPARATOR = "\n";

function toText(spec: FieldSpec, value: JsonValue | undefined): string {
  if (value === null || value === undefined) return "";
  if (spec.kind === "list" && Array.isArray(value)) return joinList(value.map(String));
  if (spec.kind === "items" && Array.isArray(value)) return value.map(String).join(ITEM_SEPARATOR);
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
    case "items":
      return items(text);
    case "facts":
      return parseFacts(text);
    case "number":
      return text.trim() === "" ? null : Number(text);
    default:
      return text.trim() === "" && spec.key !== "name" ? null : text.trim();
  }
}

function items(text: string): string[] {
  return text
    .split(ITEM_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The value at a dotted `key` of `record`. */
function read(record: Record<string, JsonValue> | null, key: string): JsonValue | undefined {
  let at: JsonValue | undefined = record ?? undefined;
  for (const part of key.split(".")) {
    if (at === null || at === undefined || typeof at !== "object" || Array.isArray(at)) return undefined;
    at = at[part];
  }
  return at;
}

/** Sets the dotted `key` in `changes`, nesting as needed. */
function write(changes: Record<string, JsonValue>, key: string, value: JsonValue) {
  const parts = key.split(".");
  let at = changes;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    if (next === null || next === undefined || typeof next !== "object" || Array.isArray(next)) at[part] = {};
    at = at[part] as Record<string, JsonValue>;
  }
  at[parts[parts.length - 1]] = value;
}

function fieldsOf(kind: RecordKind, adding: boolean): FieldSpec[] {
  return FIELDS[kind].filter((f) => !(adding && f.editOnly));
}

function initial(kind: RecordKind, record: Record<string, JsonValue> | null): Values {
  return Object.fromEntries(FIELDS[kind].map((f) => [f.key, toText(f, read(record, f.key))]));
}

interface InputsProps {
  kind: RecordKind;
  adding: boolean;
  values: Values;
  set: (k: string, v: string) => void;
  overridden: Set<string>;
  /** Labels that replace the defaults, e.g. a relationship's "How Tamsin sees Bram". */
  labels?: Record<string, string>;
}

function Inputs({ kind, adding, values, set, overridden, labels }: InputsProps) {
  return (
    <div className="bible-fields">
      {fieldsOf(kind, adding).map((f) => {
        const id = `record-${f.key.replace(".", "-")}`;
        const mark = overridden.has(f.key) || overridden.has(f.key.split(".")[0]);
        const label = labels?.[f.key] ?? f.label;
        const wide = f.kind === "long" || f.kind === "facts" || f.kind === "items";
        return (
          <div key={f.key} className={`field${wide ? " field-wide" : ""}`}>
            {f.kind === "items" ? (
              <span className="field-label" id={`${id}-label`}>
                {label}
              </span>
            ) : (
              <label htmlFor={id}>{label}</label>
            )}
            {mark && (
              <span className="badge badge-note writer-mark" title="You changed this field" data-testid={`overridden-${f.key}`}>
                yours
              </span>
            )}
            {f.kind === "items" ? (
              <ListEditor id={id} label={label} items={items(values[f.key])} onChange={(list) => set(f.key, list.join(ITEM_SEPARATOR))} />
            ) : f.kind === "choice" ? (
              <select id={id} data-testid={id} value={values[f.key]} onChange={(e) => set(f.key, e.target.value)}>
                {(f.options ?? []).map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            ) : f.kind === "long" || f.kind === "facts" ? (
              <textarea id={id} data-testid={id} rows={3} value={values[f.key]} onChange={(e) => set(f.key, e.target.value)} />
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

// A history source as the engine names it (typed: a misspelt source fails the type check).
const WRITER: NamedSource = "writer";

/** The top-level fields the writer has changed, from the record's history. */
export function writerFields(history: HistoryItem[]): Set<string> {
  return new Set(history.filter((h) => h.source === WRITER).map((h) => h.field.split(".")[0]));
}

interface EditProps {
  id: string;
  kind: RecordKind;
  record: Record<string, JsonValue>;
  history: HistoryItem[];
  labels?: Record<string, string>;
  onDone: () => void;
}

/** Edits an existing character, place or relationship; sends only the fields that changed. */
export function EditRecordForm({ id, kind, record, history, labels, onDone }: EditProps) {
  const notify = useToast();
  const [values, setValues] = useState<Values>(() => initial(kind, record));
  const start = initial(kind, record);
  const action = useAction();
  const overridden = writerFields(history);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const changes: Record<string, JsonValue> = {};
    for (const f of FIELDS[kind]) {
      if (values[f.key] !== start[f.key]) write(changes, f.key, fromText(f, values[f.key]));
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
      <Inputs kind={kind} adding={false} values={values} set={(k, v) => setValues((s) => ({ ...s, [k]: v }))} overridden={overridden} labels={labels} />
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
export function AddRecordForm({ kind, onDone }: { kind: "character" | "location"; onDone: (id: string | null) => void }) {
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
                record: "character",
                name: v("name"),
                role: v("role"),
                description: v("description"),
                personality: splitList(v("personality")),
                goals: splitList(v("goals")),
                fears: splitList(v("fears")),
                inventory: splitList(v("inventory")),
                aliases: items(values.aliases ?? ""),
                location: null,
                emotional_state: v("emotional_state") || null,
                want: v("arc.want"),
                need: v("arc.need"),
                facts,
              }
            : {
                record: "location",
                name: v("name"),
                description: v("description"),
                sensory: splitList(v("sensory")),
                threats: splitList(v("threats")),
                inhabitants: [],
                tension_level: v("tension_level") ? Number(v("tension_level")) : null,
                connections: [],
                aliases: items(values.aliases ?? ""),
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
      <Inputs kind={kind} adding values={values} set={(k, v) => setValues((s) => ({ ...s, [k]: v }))} overridden={new Set()} />
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

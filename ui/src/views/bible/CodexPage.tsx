// One codex page: a character, place or lore entry as a writer keeps it — its fields in a
// writer's order, a character's relationships by name, where the book mentions it (each
// passage linked to its scene in the manuscript) and its history as plain sentences; edited
// in place with the same forms as everywhere else.
import { useState } from "react";
import { commands } from "../../bindings";
import type { CodexEntry_Serialize as CodexEntry, CodexRelationship, JsonValue, LoreFact_Serialize as LoreFact, Mention } from "../../bindings";
import { Icon } from "../../components/Icon";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { plural } from "../../lib/format";
import { fromCodePoints } from "../../lib/textRanges";
import { useLoad } from "../../lib/useLoad";
import { MarkedText } from "../shared/MarkedText";
import { LoreForm } from "./LorePanel";
import { EditRecordForm } from "../shared/RecordForm";

const KINDS: Record<string, string> = { character: "Character", location: "Place", lore: "Lore" };

interface Props {
  id: string;
  version: number;
  onBack: () => void;
  onOpen: (id: string) => void;
  onScene?: (tick: number) => void;
}

export function CodexPage({ id, version, onBack, onOpen, onScene }: Props) {
  const page = useLoad(`codex:${id}:${version}`, () => call(commands.codexEntry(id)));
  const [editing, setEditing] = useState(false);
  const d = page.data && page.data.id === id ? page.data : undefined;
  return (
    <article className="codex-page" data-testid="codex-page" data-id={id} aria-labelledby="codex-name">
      <div className="codex-head">
        <button type="button" className="btn btn-quiet btn-small" onClick={onBack} data-testid="codex-back">
          ← All entries
        </button>
        {d && !editing && (
          <button type="button" className="btn btn-small" onClick={() => setEditing(true)} data-testid="codex-edit">
            <Icon name="edit" size={15} /> Edit
          </button>
        )}
      </div>
      {page.error !== undefined && !d && <LoadError error={page.error} onRetry={page.reload} />}
      {!d ? (
        page.error === undefined && <p className="loading">Loading the page…</p>
      ) : (
        <>
          <header>
            <p className="eyebrow">{KINDS[d.kind] ?? d.kind}</p>
            <h2 id="codex-name" data-testid="codex-name">
              {d.name}
            </h2>
            {(d.category || d.tags.length > 0) && (
              <p className="codex-tags" data-testid="codex-tags">
                {d.category && <span className="badge badge-accent">{d.category}</span>}
                {d.tags.map((t) => (
                  <span key={t} className="badge badge-note">
                    {t}
                  </span>
                ))}
              </p>
            )}
          </header>
          {editing ? (
            <Editor entry={d} onDone={() => setEditing(false)} />
          ) : (
            <div className="codex-grid">
              <div className="codex-main">
                <Fields entry={d} />
                {d.kind === "character" && <RelationshipList items={d.relationships} name={d.name} onOpen={onOpen} />}
                <History entry={d} />
              </div>
              <Mentions entry={d} onScene={onScene} />
            </div>
          )}
        </>
      )}
    </article>
  );
}

function Editor({ entry, onDone }: { entry: CodexEntry; onDone: () => void }) {
  const record = entry.detail.record;
  if (record === null || typeof record !== "object" || Array.isArray(record)) return null;
  if (entry.kind === "lore") return <LoreForm fact={record as unknown as LoreFact} onDone={onDone} />;
  const kind = entry.kind === "location" ? "location" : "character";
  return <EditRecordForm id={entry.id} kind={kind} record={record as Record<string, JsonValue>} history={entry.detail.history} onDone={onDone} />;
}

function Fields({ entry }: { entry: CodexEntry }) {
  return (
    <dl className="codex-fields" data-testid="codex-fields">
      {entry.fields.map((f) => (
        <div key={f.key} className="codex-field" data-testid="codex-field" data-field={f.key}>
          <dt>{f.label}</dt>
          <dd>
            {f.items.length > 0 ? (
              <ul className="codex-values">
                {f.items.map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            ) : f.text ? (
              f.text
            ) : (
              <span className="muted">—</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function RelationshipList({ items, name, onOpen }: { items: CodexRelationship[]; name: string; onOpen: (id: string) => void }) {
  const first = name.split(" ")[0] || name;
  return (
    <section className="codex-section" aria-labelledby="codex-relationships">
      <h3 id="codex-relationships">Relationships</h3>
      {items.length === 0 ? (
        <p className="muted small">No relationships recorded yet.</p>
      ) : (
        <ul className="codex-relationships" data-testid="codex-relationships">
          {items.map((r) => (
            <li key={r.other_id} data-testid="codex-relationship">
              <button type="button" className="link-button" onClick={() => onOpen(r.other_id)} data-testid="codex-relationship-open">
                {r.other}
              </button>
              {(r.kind || r.status) && <span className="muted"> — {[r.kind, r.status].filter(Boolean).join(", ")}</span>}
              {r.sees_them && (
                <p className="small">
                  {first} sees {r.other.split(" ")[0]} as “{r.sees_them}”.
                </p>
              )}
              {r.seen_by_them && (
                <p className="small muted">
                  {r.other.split(" ")[0]} sees {first} as “{r.seen_by_them}”.
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function History({ entry }: { entry: CodexEntry }) {
  return (
    <section className="codex-section" aria-labelledby="codex-history">
      <h3 id="codex-history">History</h3>
      {entry.history.length === 0 ? (
        <p className="muted small">No changes recorded yet.</p>
      ) : (
        <ol className="codex-history" data-testid="codex-history">
          {entry.history.map((h, i) => (
            <li key={i} className={h.flagged ? "flagged" : undefined} data-testid="codex-history-line" data-flagged={h.flagged ? "true" : "false"}>
              {h.text}
              {h.yours && (
                <span className="badge badge-note writer-mark" title="You made this change">
                  yours
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Passages grouped by scene, first scene first; each scene opens the manuscript there. */
function Mentions({ entry, onScene }: { entry: CodexEntry; onScene?: (tick: number) => void }) {
  const byScene = new Map<number, Mention[]>();
  for (const m of entry.mentions) byScene.set(m.tick, [...(byScene.get(m.tick) ?? []), m]);
  return (
    <section className="codex-section codex-mentions" aria-labelledby="codex-mentions">
      <h3 id="codex-mentions">In the book</h3>
      <p className="muted small" data-testid="codex-mention-count">
        {entry.mentions.length === 0
          ? `Not named in any scene yet${entry.searched.length > 0 ? ` (looked for ${entry.searched.join(", ")})` : ""}.`
          : `Named in ${plural(entry.mention_scenes, "scene")}.`}
      </p>
      <ol className="codex-mention-list" data-testid="codex-mentions">
        {[...byScene.entries()].map(([tick, ms]) => (
          <li key={tick} data-testid="codex-mention" data-tick={tick}>
            <button type="button" className="codex-mention" onClick={() => onScene?.(tick)} disabled={!onScene} title={`Open scene ${tick} in the manuscript`}>
              <span className="codex-mention-scene">
                Scene {tick} · {ms[0].scene_title}
              </span>
              {ms.slice(0, 3).map((m, i) => (
                <span key={i} className="codex-snippet">
                  <MarkedText text={m.snippet} highlights={fromCodePoints(m.snippet, m.marks)} />
                </span>
              ))}
              {ms.length > 3 && <span className="muted small">and {plural(ms.length - 3, "more passage")}</span>}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

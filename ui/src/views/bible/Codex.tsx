// The codex: every character, place and lore entry of the story, each opening its own page
// (fields, relationships, mentions across the book, history in sentences); characters and
// places are added here, lore added, edited and deleted here too.
import { useState } from "react";
import { commands } from "../../bindings";
import type { GraphNode, LoreFact_Serialize as LoreFact } from "../../bindings";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { useLoad } from "../../lib/useLoad";
import { CodexPage } from "./CodexPage";
import { LorePanel } from "./LorePanel";
import { AddRecordForm } from "../shared/RecordForm";
import "../../styles/codex.css";

interface Props {
  lore: LoreFact[];
  /** The open novel and its change count: pages reload when either changes. */
  loadKey: string;
  version: number;
  /** The page to show first (asked for from another view, e.g. the Graph). */
  opening: string | null;
  onScene?: (tick: number) => void;
}

export function Codex({ lore, loadKey, version, opening, onScene }: Props) {
  const [open, setOpen] = useState<string | null>(opening);
  if (open) return <CodexPage id={open} version={version} onBack={() => setOpen(null)} onOpen={setOpen} onScene={onScene} />;
  return (
    <>
      <Cast loadKey={loadKey} onOpen={setOpen} />
      <LorePanel lore={lore} onOpen={setOpen} />
    </>
  );
}

function Names({ title, kind, nodes, onOpen }: { title: string; kind: string; nodes: GraphNode[]; onOpen: (id: string) => void }) {
  return (
    <div className="codex-group">
      <h3>{title}</h3>
      {nodes.length === 0 ? (
        <p className="muted small">None yet.</p>
      ) : (
        <ul className="codex-list" data-testid={`codex-${kind}`}>
          {nodes.map((n) => (
            <li key={n.id}>
              <button type="button" className="codex-item" data-testid="codex-item" data-id={n.id} onClick={() => onOpen(n.id)}>
                <span className="codex-item-name">{n.label}</span>
                {n.subtitle && <span className="muted small">{n.subtitle}</span>}
                {!n.alive && <span className="badge badge-note">dead</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Cast({ loadKey, onOpen }: { loadKey: string; onOpen: (id: string) => void }) {
  const [adding, setAdding] = useState<"character" | "location" | null>(null);
  const graph = useLoad(`codex-cast:${loadKey}`, () => call(commands.storyGraph()));
  const nodes = graph.data?.nodes ?? [];
  return (
    <section className="bible-section" aria-labelledby="cast-title">
      <div className="section-head">
        <h2 id="cast-title">Characters and places</h2>
        {!adding && (
          <div className="button-row">
            <button type="button" className="btn btn-quiet" data-testid="add-character" onClick={() => setAdding("character")}>
              Add character
            </button>
            <button type="button" className="btn btn-quiet" data-testid="add-location" onClick={() => setAdding("location")}>
              Add place
            </button>
          </div>
        )}
      </div>
      {adding && (
        <AddRecordForm
          kind={adding}
          onDone={() => setAdding(null)}
        />
      )}
      {graph.error !== undefined && !graph.data && <LoadError error={graph.error} onRetry={graph.reload} />}
      <div className="codex-groups">
        <Names title="Characters" kind="characters" nodes={nodes.filter((n) => n.kind === "character")} onOpen={onOpen} />
        <Names title="Places" kind="places" nodes={nodes.filter((n) => n.kind === "location")} onOpen={onOpen} />
      </div>
    </section>
  );
}

// The story bible: the writer's guidance (author's note, foundation, outline, pressure), the
// lore, new characters and places, the next prompt's preview and the story's charts.
import { lazy, Suspense, useState } from "react";
import { commands } from "../../bindings";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { useNovel } from "../../lib/novel";
import { useLoad } from "../../lib/useLoad";
import { GuidancePanel } from "./GuidancePanel";
import { LorePanel } from "./LorePanel";
import { PromptPreview } from "./PromptPreview";
import { AddRecordForm } from "./RecordForm";
import "../../styles/bible.css";

// uPlot loads with the Charts tab only.
const ChartsPanel = lazy(() => import("./ChartsPanel"));

type Tab = "guidance" | "lore" | "preview" | "charts";

const TABS: { id: Tab; label: string }[] = [
  { id: "guidance", label: "Guidance" },
  { id: "lore", label: "Lore & cast" },
  { id: "preview", label: "Next prompt" },
  { id: "charts", label: "Charts" },
];

function Cast() {
  const [adding, setAdding] = useState<"character" | "location" | null>(null);
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
      {adding ? <AddRecordForm kind={adding} onDone={() => setAdding(null)} /> : <p className="muted small">Edit an existing one from its panel in the Graph.</p>}
    </section>
  );
}

export function BibleView() {
  const { overview, version } = useNovel();
  const [tab, setTab] = useState<Tab>("guidance");
  const key = `${overview?.path}:${version}`;
  const bible = useLoad(`bible:${key}`, () => call(commands.storyBible()));
  const charts = useLoad(tab === "charts" ? `charts:${key}` : null, () => call(commands.storyCharts()));
  return (
    <div className="bible">
      <div className="segmented bible-tabs" role="tablist" aria-label="Story bible">
        {TABS.map((t) => (
          <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} className={tab === t.id ? "on" : ""} data-testid={`bible-tab-${t.id}`} onClick={() => setTab(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="bible-panel" data-testid={`bible-panel-${tab}`}>
        {tab === "preview" ? (
          <PromptPreview version={key} />
        ) : tab === "charts" ? (
          charts.error !== undefined && !charts.data ? (
            <LoadError error={charts.error} onRetry={charts.reload} />
          ) : charts.data ? (
            <Suspense fallback={<p className="loading">Loading the charts…</p>}>
              <ChartsPanel charts={charts.data} />
            </Suspense>
          ) : (
            <p className="loading">Loading the charts…</p>
          )
        ) : bible.error !== undefined && !bible.data ? (
          <LoadError error={bible.error} onRetry={bible.reload} />
        ) : !bible.data ? (
          <p className="loading">Loading the story bible…</p>
        ) : tab === "guidance" ? (
          // Keyed by the data so the forms start from what was saved.
          <GuidancePanel key={key} bible={bible.data} />
        ) : (
          <>
            <LorePanel lore={bible.data.lore} />
            <Cast />
          </>
        )}
      </div>
    </div>
  );
}

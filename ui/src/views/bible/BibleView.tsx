// The story bible: the writer's guidance (author's note, foundation, outline, pressure), the
// codex (a page per character, place and lore entry), the story so far (the synopsis), the next
// prompt's preview and the story's charts.
import { lazy, Suspense, useEffect, useState } from "react";
import { commands } from "../../bindings";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { markSeen, unseen, useCodexLinks } from "../../lib/codexLink";
import { useNovel } from "../../lib/novel";
import { useLoad } from "../../lib/useLoad";
import { Codex } from "./Codex";
import { GuidancePanel } from "./GuidancePanel";
import { PromptPreview } from "./PromptPreview";
import { StorySoFar } from "./StorySoFar";
import "../../styles/bible.css";

// uPlot loads with the Charts tab only.
const ChartsPanel = lazy(() => import("../shared/ChartsPanel"));

type Tab = "guidance" | "lore" | "story" | "preview" | "charts";

const TABS: { id: Tab; label: string }[] = [
  { id: "guidance", label: "Guidance" },
  // The codex keeps the lore tab's id: links and tests name it.
  { id: "lore", label: "Codex" },
  { id: "story", label: "Story so far" },
  { id: "preview", label: "Next prompt" },
  { id: "charts", label: "Charts" },
];

export function BibleView() {
  const { overview, version } = useNovel();
  // A codex page asked for from another view (the Graph), and the manuscript for its mentions.
  const links = useCodexLinks();
  const [codex] = useState(() => unseen(links?.target));
  useEffect(() => {
    if (codex) markSeen(codex);
  }, [codex]);
  const [tab, setTab] = useState<Tab>(codex ? "lore" : "guidance");
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
        ) : tab === "story" ? (
          <StorySoFar loadKey={key} onScene={links?.readScene} />
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
          <Codex lore={bible.data.lore} loadKey={key} version={version} opening={codex?.id ?? null} onScene={links?.readScene} />
        )}
      </div>
    </div>
  );
}

// Timeline: the book as a plan, a line per scene in book order, whoever wrote it (number,
// title, POV, place, who wrote it, findings) with the details on demand, each opening its scene in the manuscript; filtered by POV, by a
// character in the scene and by chapter. Failed attempts offer Retry and Skip.
import { useMemo, useState } from "react";
import type { ChangeEvent } from "react";
import { commands } from "../../bindings";
import { BranchTag } from "../../components/BranchTag";
import { EmptyState } from "../../components/EmptyState";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { count, duration, plural } from "../../lib/format";
import { useNovel } from "../../lib/novel";
import { useToast } from "../../lib/toast";
import type { TimelineEntry } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { useRun } from "../../lib/useRun";
import { TimelineRow } from "./TimelineRow";
import "../../styles/timeline.css";

interface Filters {
  pov: string;
  character: string;
  chapter: string;
}

const NO_FILTER: Filters = { pov: "", character: "", chapter: "" };

function matches(row: TimelineEntry, f: Filters): boolean {
  if (f.pov && row.pov !== f.pov) return false;
  if (f.character && !row.characters.includes(f.character)) return false;
  if (f.chapter && String(row.chapter) !== f.chapter) return false;
  return true;
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort((a, b) => a.localeCompare(b));

export function TimelineView({ onRetry, openScene }: { onRetry: () => void; openScene: (tick: number) => void }) {
  const { overview, version } = useNovel();
  const { run, skip } = useRun();
  const notify = useToast();
  const rows = useLoad(`timeline:${overview?.path}:${version}`, () => call(commands.timeline()));
  const [filters, setFilters] = useState<Filters>(NO_FILTER);

  const choices = useMemo(() => {
    const data = rows.data ?? [];
    const chapters = new Map<number, string | null>();
    for (const r of data) if (r.chapter !== null && !chapters.has(r.chapter)) chapters.set(r.chapter, r.chapter_title);
    return {
      povs: sorted(data.flatMap((r) => (r.pov ? [r.pov] : []))),
      characters: sorted(data.flatMap((r) => r.characters)),
      chapters: [...chapters.entries()].sort(([a], [b]) => a - b),
    };
  }, [rows.data]);

  const onSkip = async (tick: number) => {
    await skip(tick);
    notify(`Skipped the failed attempt at scene ${tick}.`, "info");
    rows.reload();
  };

  if (rows.error !== undefined && !rows.data) return <LoadError error={rows.error} onRetry={rows.reload} />;
  if (!rows.data) return <p className="loading">Loading the timeline…</p>;
  if (rows.data.length === 0) return <EmptyState title="No scenes yet — press Next scene">Each scene of the book appears here: the agent’s, yours and imported ones.</EmptyState>;
  const written = rows.data.filter((r) => r.status === "committed").length;
  const tokens = rows.data.reduce((n, r) => n + r.tokens, 0);
  const time = rows.data.reduce((n, r) => n + (r.duration_ms ?? 0), 0);
  const filtering = filters.pov !== "" || filters.character !== "" || filters.chapter !== "";
  const shown = filtering ? rows.data.filter((r) => matches(r, filters)) : rows.data;
  const set = (key: keyof Filters) => (e: ChangeEvent<HTMLSelectElement>) => setFilters((f) => ({ ...f, [key]: e.target.value }));

  return (
    <div className="timeline">
      <div className="timeline-top">
        <p className="muted timeline-summary">
          {plural(written, "scene")} · {count(tokens)} tokens · {duration(time)} of writing <BranchTag />
        </p>
        <div className="timeline-filters" role="group" aria-label="Show only">
          <label>
            <span>POV</span>
            <select data-testid="filter-pov" value={filters.pov} onChange={set("pov")}>
              <option value="">Everyone</option>
              {choices.povs.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>With</span>
            <select data-testid="filter-character" value={filters.character} onChange={set("character")}>
              <option value="">Anyone</option>
              {choices.characters.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Chapter</span>
            <select data-testid="filter-chapter" value={filters.chapter} onChange={set("chapter")}>
              <option value="">All</option>
              {choices.chapters.map(([n, title]) => (
                <option key={n} value={String(n)}>
                  {title ? `${n} · ${title}` : `Chapter ${n}`}
                </option>
              ))}
            </select>
          </label>
          {filtering && (
            <button type="button" className="btn btn-quiet btn-small" data-testid="filter-clear" onClick={() => setFilters(NO_FILTER)}>
              Show all
            </button>
          )}
        </div>
      </div>
      {filtering && (
        <p className="muted small" data-testid="timeline-filtered">
          {plural(shown.length, "scene")} of {count(rows.data.length)} shown
        </p>
      )}
      <div className="timeline-rows">
        {shown.map((row, i) => (
          <TimelineRow
            key={`${row.tick}-${row.status}-${i}`}
            row={row}
            running={run.status !== "idle"}
            onRetry={onRetry}
            onSkip={onSkip}
            onOpen={openScene}
          />
        ))}
      </div>
      {shown.length === 0 && <p className="muted">No scene matches. <button type="button" className="link" onClick={() => setFilters(NO_FILTER)}>Show all</button></p>}
    </div>
  );
}

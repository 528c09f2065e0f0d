// Timeline: one row per tick, in order, with what was planned, which tools ran, what the
// checks found, tokens and time; failed ticks offer Retry and Skip.
import { commands } from "../bindings";
import { BranchTag } from "../components/BranchTag";
import { EmptyState } from "../components/EmptyState";
import { LoadError } from "../components/LoadError";
import { call } from "../lib/api";
import { count, duration } from "../lib/format";
import { useNovel } from "../lib/novel";
import { useToast } from "../lib/toast";
import { useLoad } from "../lib/useLoad";
import { useRun } from "../lib/useRun";
import { TimelineRow } from "./TimelineRow";
import "../styles/timeline.css";

export function TimelineView({ onRetry }: { onRetry: () => void }) {
  const { overview, version } = useNovel();
  const { run, skip } = useRun();
  const notify = useToast();
  const rows = useLoad(`timeline:${overview?.path}:${version}`, () => call(commands.timeline()));

  const onSkip = async (tick: number) => {
    await skip(tick);
    notify(`Skipped the failed attempt at scene ${tick}.`, "info");
    rows.reload();
  };

  if (rows.error !== undefined && !rows.data) return <LoadError error={rows.error} onRetry={rows.reload} />;
  if (!rows.data) return <p className="loading">Loading the timeline…</p>;
  if (rows.data.length === 0) return <EmptyState title="No scenes yet — press Next scene">Each tick the agent runs appears here.</EmptyState>;
  const tokens = rows.data.reduce((n, r) => n + r.tokens, 0);
  const time = rows.data.reduce((n, r) => n + (r.duration_ms ?? 0), 0);

  return (
    <div className="timeline">
      <p className="muted timeline-summary">
        {rows.data.length} ticks · {count(tokens)} tokens · {duration(time)} of writing <BranchTag />
      </p>
      {rows.data.map((row, i) => (
        <TimelineRow key={`${row.tick}-${row.status}-${i}`} row={row} running={run.status !== "idle"} onRetry={onRetry} onSkip={onSkip} />
      ))}
    </div>
  );
}

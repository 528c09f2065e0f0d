// Write: the main view. Steering note, Next scene / Run N / Stop / Cancel, the live run, the
// committed scene with its findings, and the failure banner with Retry / Skip.
import { FailureBanner } from "../components/FailureBanner";
import { EmptyState } from "../components/EmptyState";
import { useNovel } from "../lib/novel";
import { currentFailure } from "../lib/run";
import { useRun } from "../lib/useRun";
import { plural } from "../lib/format";
import { useToast } from "../lib/toast";
import { CommittedScene } from "./CommittedScene";
import { LiveRun } from "./LiveRun";
import { RunControls } from "./RunControls";
import { RunErrorBanner } from "./RunErrorBanner";
import "../styles/write.css";

interface Props {
  onRun: (n?: number) => void;
  goSettings: () => void;
}

function endNote(end: string, committed: number): string | null {
  if (end === "stopped") return `Stopped after ${plural(committed, "scene")}, as asked.`;
  if (end === "cancelled") return "Cancelled. The scene in progress was rolled back; your story is unchanged.";
  return null;
}

export function WriteView({ onRun, goSettings }: Props) {
  const { overview } = useNovel();
  const { run, stop, skip, setSteering, dismissError } = useRun();
  const notify = useToast();
  const failure = currentFailure(run, overview?.pending_failure);
  const running = run.status !== "idle";
  const hasOutput = running || run.prose !== "" || run.committed.length > 0;
  const latest = run.committed[run.committed.length - 1];
  const note = !running && run.report ? endNote(run.report.end, run.report.committed.length) : null;

  const onSkip = async (tick: number) => {
    await skip(tick);
    notify(`Skipped the failed attempt at scene ${tick}. The next scene starts fresh.`, "info");
  };

  return (
    <div className="write">
      {run.error && <RunErrorBanner error={run.error} goSettings={goSettings} onDismiss={dismissError} />}
      {failure && <FailureBanner failure={failure} onRetry={() => onRun(1)} onSkip={onSkip} />}
      <RunControls
        status={run.status}
        steering={run.steering}
        onSteering={setSteering}
        onRun={(n) => onRun(n)}
        onStop={(cancel) => void stop(cancel)}
        progress={{ index: run.index, total: run.total }}
      />
      {note && (
        <p className="notice notice-info" data-testid="run-end">
          {note}
        </p>
      )}
      {latest && <CommittedScene summary={latest} latest />}
      {hasOutput ? (
        <LiveRun run={run} />
      ) : (
        !failure &&
        !run.error && (
          <EmptyState
            title={overview && overview.scenes > 0 ? `Scene ${overview.current_tick + 1} is next` : "No scenes yet — press Next scene"}
          >
            {overview && overview.scenes > 0
              ? "Add a note to steer it, or let the story find its own way. Ctrl+Enter writes it."
              : "The agent plans the first scene from your premise, writes it while you watch, checks it and remembers what happened."}
          </EmptyState>
        )
      )}
      {run.committed.length > 1 && (
        <div className="earlier">
          <h3 className="muted">Earlier in this run</h3>
          {run.committed
            .slice(0, -1)
            .reverse()
            .map((s) => (
              <CommittedScene key={s.tick} summary={s} latest={false} />
            ))}
        </div>
      )}
    </div>
  );
}

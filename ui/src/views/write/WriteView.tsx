// Write: the main view. Word-count goals, steering note, Next scene / Run N / Write again / Stop / Cancel, the
// live run, review mode's plan and scene panels, the committed scene with its findings, the
// failure banner with Retry / Skip and under it the prose the failed scene had (Copy, Keep as a
// draft), and, when nothing is running, what comes next with a recap of the last scene.
import { FailureBanner } from "../../components/FailureBanner";
import { Icon } from "../../components/Icon";
import { EmptyState } from "../../components/EmptyState";
import type { SceneRecap } from "../../bindings";
import { useNovel } from "../../lib/novel";
import { currentFailure } from "../../lib/run";
import { useRun } from "../../lib/useRun";
import { plural } from "../../lib/format";
import { useToast } from "../../lib/toast";
import { CommittedScene } from "./CommittedScene";
import { LiveRun } from "./LiveRun";
import { PlanReview } from "./PlanReview";
import { SceneReview } from "./SceneReview";
import { RunControls } from "./RunControls";
import { RunErrorBanner } from "./RunErrorBanner";
import { FailedDraft } from "./FailedDraft";
import { WordGoals } from "./WordGoals";
import "../../styles/write.css";

interface Props {
  onRun: (n?: number) => void;
  onRegenerate: () => void;
  goSettings: () => void;
  /** Opens a scene in the manuscript's editor. */
  editScene: (tick: number) => void;
  /** Opens the versions of a scene in the manuscript. */
  openVersions: (tick: number) => void;
}

function endNote(end: string, committed: number, regenerated: boolean): string | null {
  if (end === "stopped") return `Stopped after ${plural(committed, "scene")}, as asked.`;
  if (end === "cancelled") {
    return regenerated
      ? "Cancelled. The scene was not written again; it is as it was."
      : "Cancelled. The scene in progress was rolled back; your story is unchanged.";
  }
  if (end === "rejected") {
    return regenerated
      ? "Rejected. The scene keeps its earlier text; nothing else changed."
      : "Rejected. Nothing was saved; your story is unchanged.";
  }
  return null;
}

export function WriteView({ onRun, onRegenerate, goSettings, openVersions, editScene }: Props) {
  const { overview } = useNovel();
  const { run, stop, skip, setSteering, dismissError, again, keepDraft, decidePlan, decideScene } = useRun();
  const notify = useToast();
  const failure = currentFailure(run, overview?.pending_failure);
  const running = run.status !== "idle";
  const hasOutput = running || run.prose !== "" || run.committed.length > 0;
  const latest = run.committed[run.committed.length - 1];
  const regenerated = run.mode === "regenerate";
  const note = !running && run.report ? endNote(run.report.end, run.report.committed.length, regenerated) : null;
  const rewritten = !running && regenerated && run.report?.end === "completed" ? latest : undefined;
  const review = run.status === "running" || run.status === "stopping" ? run.review : null;

  // Edit: the draft is kept as it is, then opened in the editor with its findings beside it.
  const onEdit = async (tick: number) => {
    await keepDraft();
    editScene(tick);
  };

  // Keep as a draft: committed as it is with no model call, then finished by hand in the editor.
  const onKeepAsDraft = async (tick: number) => {
    await keepDraft(true);
    editScene(tick);
  };

  // What the failed scene had: the draft in its error file (what would be kept, there after a
  // restart too), else what streamed on screen before the failure.
  const pendingDraft = failure && overview?.pending_failure?.tick === failure.tick ? overview.failed_draft : null;
  const failedText = failure ? (pendingDraft ?? (run.prose.trim() !== "" ? run.prose : null)) : null;

  const onSkip = async (tick: number) => {
    await skip(tick);
    notify(`Skipped the failed attempt at scene ${tick}. The next scene starts fresh.`, "info");
  };

  return (
    <div className="write">
      {overview && <WordGoals key={overview.path} path={overview.path} words={overview.words} />}
      {run.error && <RunErrorBanner error={run.error} goSettings={goSettings} onDismiss={dismissError} />}
      {failure && <FailureBanner failure={failure} onRetry={() => onRun(1)} onSkip={onSkip} onKeep={() => void keepDraft()} onEdit={onEdit} />}
      <RunControls
        status={run.status}
        mode={run.mode}
        latestTick={overview?.current_tick ?? 0}
        writeAgainRefusal={overview?.write_again_refusal ?? null}
        reviewing={review !== null}
        onRegenerate={onRegenerate}
        steering={run.steering}
        onSteering={setSteering}
        onRun={(n) => onRun(n)}
        onStop={(cancel) => void stop(cancel)}
        progress={{ index: run.index, total: run.total }}
      />
      {note && (
        <div className="notice notice-info run-end" data-testid="run-end" data-end={run.report?.end}>
          <p>{note}</p>
          {run.report?.end === "rejected" && (
            <button type="button" className="btn btn-primary btn-small" data-testid="write-again" onClick={() => void again()}>
              <Icon name="regenerate" /> Write again
            </button>
          )}
        </div>
      )}
      {rewritten && (
        <div className="notice notice-info run-end" data-testid="regenerated">
          <p>Scene {rewritten.tick} was written again. The earlier text is kept as a version.</p>
          <button type="button" className="btn btn-quiet btn-small" data-testid="open-versions" onClick={() => openVersions(rewritten.tick)}>
            <Icon name="history" /> Compare versions
          </button>
        </div>
      )}
      {review?.kind === "plan" && (
        <PlanReview
          key={`plan-${review.tick}`}
          tick={review.tick}
          plan={review.plan}
          regenerating={regenerated}
          onDecide={decidePlan}
        />
      )}
      {review?.kind === "scene" && (
        <SceneReview key={`scene-${review.proposal.tick}`} proposal={review.proposal} regenerating={regenerated} onDecide={decideScene} />
      )}
      {latest && <CommittedScene summary={latest} latest />}
      {failure && failedText !== null && (
        <FailedDraft
          tick={failure.tick}
          text={failedText}
          busy={running}
          onKeep={
            pendingDraft && failure.tick !== null && failure.kind !== "prose_rejected"
              ? () => failure.tick !== null && void onKeepAsDraft(failure.tick)
              : undefined
          }
        />
      )}
      {review?.kind === "scene" || (failure && failedText !== null) ? null : hasOutput ? (
        <LiveRun run={run} />
      ) : (
        !failure &&
        !run.error && (
          <EmptyState
            title={overview && overview.scenes > 0 ? `Scene ${overview.current_tick + 1} is next` : "No scenes yet — press Next scene"}
          >
            {overview?.last_scene && <Recap scene={overview.last_scene} />}
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

/** "Last time: scene 40, “The Ledger” — Elena finds the page cut out." */
function Recap({ scene }: { scene: SceneRecap }) {
  return (
    <span className="recap" data-testid="recap">
      Last time: scene {scene.tick}, “{scene.title}”{scene.summary ? ` — ${scene.summary}` : "."}
    </span>
  );
}

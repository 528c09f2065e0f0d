// The composer of the Write view: the steering note for the next scene, Next scene, Run N,
// Write the latest scene again, and Stop / Cancel while a run is in progress.
import { useState } from "react";
import { Icon } from "../../components/Icon";
import type { RunMode, RunStatus } from "../../lib/run";
import { MAX_RUN } from "../../lib/useRun";

interface Props {
  status: RunStatus;
  mode: RunMode;
  /** The latest scene (0: none yet, so nothing to write again). */
  latestTick: number;
  /** Why the latest scene cannot be written again (imported, written by hand), if it cannot. */
  writeAgainRefusal: string | null;
  /** The review panel is waiting for the writer. */
  reviewing: boolean;
  steering: string;
  onSteering: (text: string) => void;
  onRun: (n: number) => void;
  onRegenerate: () => void;
  onStop: (cancel: boolean) => void;
  progress: { index: number; total: number };
}

export function RunControls({ status, mode, latestTick, writeAgainRefusal, reviewing, steering, onSteering, onRun, onRegenerate, onStop, progress }: Props) {
  const [count, setCount] = useState("5");
  const running = status !== "idle";
  const n = Math.round(Number(count));
  const countOk = Number.isFinite(n) && n >= 1 && n <= MAX_RUN;

  return (
    <section className="card composer" aria-label="Write the next scene">
      <label className="composer-label" htmlFor="steering-note">
        Steer the next scene <span className="muted">(optional)</span>
      </label>
      <textarea
        id="steering-note"
        data-testid="steering-note"
        className="steering"
        rows={2}
        value={steering}
        placeholder="What should happen next, who should come in, or what to avoid"
        onChange={(e) => onSteering(e.target.value)}
      />
      <div className="composer-actions">
        {running ? (
          <>
            <span className="run-progress" data-testid="run-progress">
              {status === "stopping"
                ? "Stopping after this scene…"
                : status === "cancelling"
                  ? "Cancelling…"
                  : reviewing
                    ? "Waiting for your review"
                    : mode === "regenerate"
                      ? `Writing scene ${latestTick} again`
                      : progress.total > 1
                        ? `Scene ${progress.index || 1} of ${progress.total}`
                        : "Writing the next scene"}
            </span>
            <button
              type="button"
              className="btn btn-quiet"
              data-testid="stop-run"
              disabled={status !== "running"}
              onClick={() => onStop(false)}
              title="Finish the scene being written, then stop (Escape)"
            >
              <Icon name="stop" /> Stop
            </button>
            <button
              type="button"
              className="btn btn-danger-quiet"
              data-testid="cancel-run"
              disabled={status === "cancelling"}
              onClick={() => onStop(true)}
              title="Abandon the scene being written; nothing of it is kept"
            >
              <Icon name="close" /> Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="btn btn-primary btn-large"
              data-testid="next-scene"
              onClick={() => onRun(1)}
              title="Write the next scene (Ctrl+Enter)"
            >
              <Icon name="play" /> Next scene
            </button>
            {latestTick > 0 && (
              <button
                type="button"
                className="btn btn-quiet"
                data-testid="regenerate-scene"
                onClick={onRegenerate}
                disabled={writeAgainRefusal !== null}
                aria-describedby={writeAgainRefusal !== null ? "write-again-why" : undefined}
                title={
                  writeAgainRefusal ??
                  `Write scene ${latestTick} again, with the note above if there is one (Ctrl+Shift+Enter). The current text is kept as a version.`
                }
              >
                <Icon name="regenerate" /> Write scene {latestTick} again
              </button>
            )}
            <div className="run-n">
              <label htmlFor="run-count">Run</label>
              <input
                id="run-count"
                data-testid="run-count"
                type="number"
                min={1}
                max={MAX_RUN}
                value={count}
                aria-invalid={!countOk}
                onChange={(e) => setCount(e.target.value)}
              />
              <span className="muted">scenes</span>
              <button
                type="button"
                className="btn btn-quiet"
                data-testid="run-n"
                disabled={!countOk}
                onClick={() => onRun(n)}
                title={`Write ${countOk ? n : "1–50"} scenes in a row; Stop ends the run after the current one`}
              >
                Run
              </button>
            </div>
          </>
        )}
      </div>
      {writeAgainRefusal !== null && latestTick > 0 && !running && (
        // A disabled button's tooltip does not show in every web view: the reason is on screen.
        <p className="muted small" id="write-again-why" data-testid="write-again-why">
          {writeAgainRefusal}
        </p>
      )}
      {!countOk && !running && <p className="field-error">Choose between 1 and {MAX_RUN} scenes.</p>}
    </section>
  );
}

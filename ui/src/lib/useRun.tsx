// Runs live at the app level (not in the Write view) so a run goes on, and its banner stays,
// while the writer reads other views. Starts `runTicks` (or `regenerateScene`) with a typed
// Channel, stops it, answers review mode's questions, skips a failed tick, and keeps the
// steering note for the next scene.
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef } from "react";
import type { ReactNode } from "react";
import { Channel } from "@tauri-apps/api/core";
import { commands } from "../bindings";
import type { PlanVerdict, RunEvent_Deserialize, Verdict } from "../bindings";
import { appError, call } from "./api";
import { useNovel } from "./novel";
import { initialRun, runReducer } from "./run";
import type { RunMode, RunState } from "./run";
import type { RunEvent } from "./types";

export const MAX_RUN = 50;

export interface RunApi {
  run: RunState;
  start: (n: number) => Promise<void>;
  /** Writes the latest scene again, with the steering note when there is one. */
  regenerate: () => Promise<void>;
  /** Runs again what the last run did (after a rejection in review). */
  again: () => Promise<void>;
  /** Commits the draft of the scene that failed as it is: "Keep anyway" (its memory read), or
   *  with `toFinish` "Keep as a draft" (no model call; the writer finishes it in the editor). */
  keepDraft: (toFinish?: boolean) => Promise<void>;
  stop: (cancel: boolean) => Promise<void>;
  decidePlan: (verdict: PlanVerdict) => Promise<void>;
  decideScene: (verdict: Verdict) => Promise<void>;
  skip: (tick: number) => Promise<void>;
  setSteering: (text: string) => void;
  dismissError: () => void;
}

const RunContext = createContext<RunApi | null>(null);

export function RunProvider({ children }: { children: ReactNode }) {
  const [run, dispatch] = useReducer(runReducer, initialRun);
  const { refresh, subscribe } = useNovel();
  const busy = useRef(false);
  const steering = useRef("");
  const last = useRef<{ mode: RunMode; n: number }>({ mode: "next", n: 1 });
  useEffect(() => {
    steering.current = run.steering;
  }, [run.steering]);

  useEffect(
    () =>
      subscribe((reason) => {
        if (reason === "failure_skipped") dispatch({ type: "clear-failure" });
        if (reason === "opened" || reason === "closed") dispatch({ type: "reset" });
      }),
    [subscribe],
  );

  const launch = useCallback(
    async (mode: RunMode, n: number, toFinish = false) => {
      if (busy.current) return;
      busy.current = true;
      const count = Math.max(1, Math.min(MAX_RUN, Math.round(n) || 1));
      const note = steering.current.trim();
      // The Rust side serializes these events (the bindings name the parameter's type by the
      // direction a Rust *argument* takes, hence the cast).
      const channel = new Channel<RunEvent>();
      channel.onmessage = (event) => dispatch({ type: "event", event });
      dispatch({ type: "start", n: mode === "next" ? count : 1, mode });
      last.current = { mode, n: count };
      const sink = channel as unknown as Channel<RunEvent_Deserialize>;
      try {
        const report = await call(
          mode === "keep"
            ? commands.keepFailedDraft(toFinish, sink)
            : mode === "regenerate"
              ? commands.regenerateScene(note === "" ? null : note, sink)
              : commands.runTicks(count, note === "" ? null : note, sink),
        );
        await refresh().catch(() => null);
        dispatch({ type: "done", report });
      } catch (e) {
        await refresh().catch(() => null);
        dispatch({ type: "error", error: appError(e) });
      } finally {
        busy.current = false;
      }
    },
    [refresh],
  );

  const start = useCallback((n: number) => launch("next", n), [launch]);
  const regenerate = useCallback(() => launch("regenerate", 1), [launch]);
  const again = useCallback(() => launch(last.current.mode, last.current.n), [launch]);
  const keepDraft = useCallback((toFinish = false) => launch("keep", 1, toFinish), [launch]);

  const decidePlan = useCallback(async (verdict: PlanVerdict) => {
    await call(commands.planDecision(verdict));
    dispatch({ type: "decided" });
  }, []);

  const decideScene = useCallback(async (verdict: Verdict) => {
    await call(commands.reviewDecision(verdict));
    dispatch({ type: "decided" });
  }, []);

  const stop = useCallback(async (cancel: boolean) => {
    if (!busy.current) return;
    dispatch({ type: "stopping", cancel });
    try {
      await call(commands.stopRun(cancel));
    } catch (e) {
      dispatch({ type: "error", error: appError(e) });
    }
  }, []);

  const skip = useCallback(
    async (tick: number) => {
      await call(commands.skipFailedTick(tick));
      await refresh().catch(() => null);
      dispatch({ type: "clear-failure" });
    },
    [refresh],
  );

  const setSteering = useCallback((text: string) => dispatch({ type: "steer", text }), []);
  const dismissError = useCallback(() => dispatch({ type: "clear-failure" }), []);

  const value = useMemo(
    () => ({ run, start, regenerate, again, keepDraft, stop, decidePlan, decideScene, skip, setSteering, dismissError }),
    [run, start, regenerate, again, keepDraft, stop, decidePlan, decideScene, skip, setSteering, dismissError],
  );
  return <RunContext.Provider value={value}>{children}</RunContext.Provider>;
}

export function useRun(): RunApi {
  const api = useContext(RunContext);
  if (!api) throw new Error("useRun outside RunProvider");
  return api;
}

// Runs live at the app level (not in the Write view) so a run goes on, and its banner stays,
// while the writer reads other views. Starts `runTicks` with a typed Channel, stops it, skips
// a failed tick, and keeps the steering note for the next scene.
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef } from "react";
import type { ReactNode } from "react";
import { Channel } from "@tauri-apps/api/core";
import { commands } from "../bindings";
import type { RunEvent_Deserialize } from "../bindings";
import { appError, call } from "./api";
import { useNovel } from "./novel";
import { initialRun, runReducer } from "./run";
import type { RunState } from "./run";
import type { RunEvent } from "./types";

export const MAX_RUN = 50;

export interface RunApi {
  run: RunState;
  start: (n: number) => Promise<void>;
  stop: (cancel: boolean) => Promise<void>;
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

  const start = useCallback(
    async (n: number) => {
      if (busy.current) return;
      busy.current = true;
      const count = Math.max(1, Math.min(MAX_RUN, Math.round(n) || 1));
      const note = steering.current.trim();
      // The Rust side serializes these events (the bindings name the parameter's type by the
      // direction a Rust *argument* takes, hence the cast).
      const channel = new Channel<RunEvent>();
      channel.onmessage = (event) => dispatch({ type: "event", event });
      dispatch({ type: "start", n: count });
      try {
        const report = await call(
          commands.runTicks(count, note === "" ? null : note, channel as unknown as Channel<RunEvent_Deserialize>),
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
    () => ({ run, start, stop, skip, setSteering, dismissError }),
    [run, start, stop, skip, setSteering, dismissError],
  );
  return <RunContext.Provider value={value}>{children}</RunContext.Provider>;
}

export function useRun(): RunApi {
  const api = useContext(RunContext);
  if (!api) throw new Error("useRun outside RunProvider");
  return api;
}

// The state of a writing run, as a pure reducer over the `RunEvent`s streamed from Rust:
// current stage, tool results, the prose as it streams (restarting on revision), usage,
// the scenes committed so far, the fresh draft tried after one could not be kept, what waits
// for the writer's review (review mode) and the final report. A run writes new scenes or
// writes the latest one again (`mode`).
import { TICK_STAGES } from "../bindings";
import type { AppError, Stage } from "../bindings";
import type { FailureKind, Finding, Plan, Proposal, RunEvent, RunReport, TickSummary } from "./types";

/** A stage's label, from the stages Rust lists (`TICK_STAGES` in the bindings). */
export function stageLabel(stage: Stage | null | undefined): string {
  return TICK_STAGES.find((s) => s.stage === stage)?.label ?? (stage ? String(stage) : "Starting");
}

export interface ToolResult {
  id: string;
  tool: string;
  ok: boolean;
  detail: string;
}

export interface Usage {
  prompt: number;
  completion: number;
}

export type RunStatus = "idle" | "running" | "stopping" | "cancelling";

/** New scenes, the latest scene written again, or a failed draft kept as it is. */
export type RunMode = "next" | "regenerate" | "keep";

/** What the tick waits for the writer to decide (review mode). */
export type ReviewRequest = { kind: "plan"; tick: number | null; plan: Plan } | { kind: "scene"; proposal: Proposal };

export interface RunState {
  status: RunStatus;
  mode: RunMode;
  /** The plan or the scene waiting for the writer's decision, in review mode. */
  review: ReviewRequest | null;
  /** Scenes asked for by the current (or last) run. */
  requested: number;
  index: number;
  total: number;
  tick: number | null;
  stage: Stage | null;
  stagesSeen: Stage[];
  plan: Plan | null;
  tools: ToolResult[];
  prose: string;
  findings: Finding[];
  tickUsage: Usage;
  runUsage: Usage;
  committed: TickSummary[];
  report: RunReport | null;
  /** The run command itself failed (no provider, busy, …). */
  error: AppError | null;
  /** The failure of the last run was skipped or is being retried: no banner for it. */
  failureCleared: boolean;
  steering: string;
  /** The note sent with the run, cleared from the box once a scene used it. */
  sentSteering: string;
  /** The last draft could not be kept and the run is trying a fresh one. */
  retrying: Extract<RunEvent, { type: "retrying" }> | null;
}

export const initialRun: RunState = {
  status: "idle",
  mode: "next",
  review: null,
  requested: 0,
  index: 0,
  total: 0,
  tick: null,
  stage: null,
  stagesSeen: [],
  plan: null,
  tools: [],
  prose: "",
  findings: [],
  tickUsage: { prompt: 0, completion: 0 },
  runUsage: { prompt: 0, completion: 0 },
  committed: [],
  report: null,
  error: null,
  failureCleared: false,
  steering: "",
  sentSteering: "",
  retrying: null,
};

export type RunAction =
  | { type: "start"; n: number; mode?: RunMode }
  /** The writer answered the review on screen; the tick goes on. */
  | { type: "decided" }
  | { type: "event"; event: RunEvent }
  | { type: "stopping"; cancel: boolean }
  | { type: "done"; report: RunReport }
  | { type: "error"; error: AppError }
  | { type: "clear-failure" }
  | { type: "steer"; text: string }
  /** Another novel was opened (or none is): forget the last run's output. */
  | { type: "reset" };

function freshTick(state: RunState): RunState {
  return {
    ...state,
    tick: null,
    stage: null,
    stagesSeen: [],
    review: null,
    plan: null,
    tools: [],
    prose: "",
    findings: [],
    tickUsage: { prompt: 0, completion: 0 },
  };
}

function onTickEvent(state: RunState, event: Extract<RunEvent, { type: "tick" }>): RunState {
  const e = event.event;
  const s = { ...state, index: event.index, total: event.total };
  switch (e.type) {
    case "started":
      return { ...freshTick(s), tick: e.tick };
    case "stage":
      return {
        ...s,
        review: null,
        stage: e.stage,
        stagesSeen: s.stagesSeen.includes(e.stage) ? s.stagesSeen : [...s.stagesSeen, e.stage],
        // The reviser streams the whole scene again.
        prose: e.stage === "revising" ? "" : s.prose,
      };
    case "planned":
      return { ...s, plan: e.plan };
    case "tool_finished":
      return { ...s, tools: [...s.tools, { id: e.id, tool: e.tool, ok: e.ok, detail: e.detail }] };
    case "prose_delta":
      return { ...s, prose: s.prose + e.text };
    case "findings":
      return { ...s, findings: e.findings };
    case "usage": {
      const add = (u: Usage) => ({ prompt: u.prompt + e.prompt_tokens, completion: u.completion + e.completion_tokens });
      return { ...s, tickUsage: add(s.tickUsage), runUsage: add(s.runUsage) };
    }
    case "awaiting_plan_review":
      return { ...s, review: { kind: "plan", tick: s.tick, plan: e.plan } };
    case "awaiting_review":
      return { ...s, review: { kind: "scene", proposal: e.proposal } };
    case "committed":
      return { ...s, review: null };
  }
}

export function runReducer(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case "start":
      return {
        ...freshTick(initialRun),
        status: "running",
        mode: action.mode ?? "next",
        requested: action.n,
        total: action.n,
        steering: state.steering,
        sentSteering: state.steering.trim(),
      };
    case "event": {
      const event = action.event;
      if (event.type === "tick") return onTickEvent(state, event);
      // The draft could not be kept: a fresh one streams in its place.
      if (event.type === "retrying") return { ...freshTick(state), retrying: event };
      if (event.type === "tick_committed") {
        const used = state.sentSteering !== "" && state.steering.trim() === state.sentSteering;
        return {
          ...state,
          retrying: null,
          committed: [...state.committed, event.summary],
          findings: event.summary.findings,
          steering: used ? "" : state.steering,
          sentSteering: "",
        };
      }
      return { ...state, report: event.report };
    }
    case "stopping":
      return state.status === "idle" ? state : { ...state, status: action.cancel ? "cancelling" : "stopping" };
    case "decided":
      return { ...state, review: null };
    // A run that ended is retrying nothing, whether its fresh draft was kept or not.
    case "done":
      return { ...state, status: "idle", report: action.report, stage: null, review: null, retrying: null };
    case "error":
      return { ...state, status: "idle", error: action.error, stage: null, review: null, retrying: null };
    case "clear-failure":
      return { ...state, failureCleared: true, error: null };
    case "steer":
      return { ...state, steering: action.text };
    case "reset":
      return state.status === "idle" ? initialRun : state;
  }
}

/** "Scene 4's draft could not be kept — <why>. Writing a fresh draft (1 of 2)." */
export function retryNotice({ failure, attempt, retries }: NonNullable<RunState["retrying"]>): string {
  const scene = failure.tick === null ? "The scene's" : `Scene ${failure.tick}'s`;
  // The engine's message may end a sentence of its own; its stop would double ours.
  const why = failure.message.trim().replace(/\.+$/, "");
  return `${scene} draft could not be kept — ${why}. Writing a fresh draft (${attempt} of ${retries}).`;
}

/** What the failure banner shows: a failed tick of this run, or one the novel still has pending. */
export interface FailureInfo {
  tick: number | null;
  kind: FailureKind;
  message: string;
  stage: Stage | null;
  errorFile: string | null;
}

export function currentFailure(
  run: RunState,
  pending: { tick: number; kind: FailureKind; message: string; error_file: string } | null | undefined,
): FailureInfo | null {
  if (run.status !== "idle") return null;
  const failure = run.report?.end === "failed" ? run.report.failure : null;
  if (failure && !run.failureCleared) {
    return { tick: failure.tick, kind: failure.kind, message: failure.message, stage: failure.stage, errorFile: failure.error_file };
  }
  if (pending) return { tick: pending.tick, kind: pending.kind, message: pending.message, stage: null, errorFile: pending.error_file };
  return null;
}

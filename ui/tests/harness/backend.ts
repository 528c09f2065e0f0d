// The mocked Rust side for UI tests: answers every command from an in-memory novel, streams
// runs over the Channel (stages, tools, prose deltas, usage, a retried draft, commit, report),
// emits `novel-changed`, answers dialogs, and records every call in `window.__calls`.
import { emit } from "@tauri-apps/api/event";
import type {
  AppError,
  ChangeReason,
  ErrorKind_Serialize as ErrorKind,
  FailureView_Serialize as FailureView,
  NewNovelForm,
  PlanAction_Serialize,
  ProbeReport,
  ProviderProfile_Deserialize,
  ProvidersView_Serialize,
  RecentNovel_Serialize,
  RunEvent_Serialize,
  RunReport_Serialize,
  SceneView_Serialize,
  StoryGraph_Serialize,
  TickEvent_Serialize,
  TickSummary_Serialize,
  TimelineRow_Serialize,
  Finding_Serialize,
  BranchRow_Serialize,
  DiffRun,
  SceneVersion_Serialize,
  Verdict_Deserialize,
  PlanVerdict_Deserialize,
} from "../../src/bindings";
import { auditHandlers } from "./auditBackend";
import { bibleHandlers } from "./bibleBackend";
import { readerHandlers } from "./readerBackend";
import { replaceHandlers } from "./replaceBackend";
import { synopsisHandlers } from "./synopsisBackend";
import { importHandlers } from "./importBackend";
import type { ImportScenario } from "./importBackend";
import { providersHandlers } from "./providersBackend";
import type { ProvidersScenario } from "./providersBackend";
import { ABANDONED_LOOP, GRAPH, HOSTILE_PROSE, LOOPS, NOVEL_PATH, PROSE, PROVIDERS, bigGraph, entity, graphWithUnlinked, overview, ownRow, scene, timelineRow } from "./fixtures";

/** What one tick of a run does. */
export interface TickScript {
  outcome?: "ok" | "fail";
  prose?: string;
  /** Stream a first draft, then `revising` and this prose again. */
  revise?: boolean;
  findings?: Finding_Serialize[];
  message?: string;
  /** The kind of the failure (default `llm.server`). */
  kind?: ErrorKind;
  title?: string;
  /** Milliseconds between streamed events (default: the scenario's `delayMs`). */
  delayMs?: number;
  /** The first draft could not be kept (this message, `prose_rejected`): the run retries the tick once (of 2). */
  retry?: string;
  /** With `outcome: "fail"`: this much prose streams before the failure, and the error file keeps it. */
  partial?: string;
  /** The committed summary's usage by role (default: none). */
  usage?: TickSummary_Serialize["usage"];
}

export interface Scenario extends ProvidersScenario, ImportScenario {
  /** Open the fixture novel at start. */
  novel?: boolean;
  /** Committed scenes of the fixture novel (default 2). */
  scenes?: number;
  /** Scene 1's prose is hostile markup. */
  hostile?: boolean;
  /** The next tick failed earlier and is pending (of this kind, default `llm.server`). */
  pendingFailure?: boolean | ErrorKind;
  /** The pending failure's error file holds this draft. */
  failedDraft?: string;
  /** The loops board has a loop the writer let go, too. */
  abandonedLoop?: boolean;
  recent?: RecentNovel_Serialize[];
  providers?: ProvidersView_Serialize;
  /** One per tick, in order; ticks beyond the list succeed. */
  ticks?: TickScript[];
  graphSize?: number;
  /** This many characters linked to nobody are added to the fixture graph. */
  unlinked?: number;
  delayMs?: number;
  /** A command name → the error it answers with (every call). */
  errors?: Record<string, AppError>;
  /** A command name → the error it answers with once. */
  errorsOnce?: Record<string, AppError>;
  /** What the folder picker answers, and the file the shell's export save dialog answers. */
  dialog?: { open?: string | null; save?: string | null };
  probe?: ProbeReport | AppError;
  /** Review mode: each tick waits for `review_decision` after extraction. */
  review?: boolean;
  /** The writer says no in the shell's native question before a rewind. */
  declineRewind?: boolean;
  /** The local embedding model is missing: search by words only. */
  keywordSearchOnly?: boolean;
  /** The overview's reason the latest scene cannot be written again (imported, by hand). */
  writeAgainRefusal?: string;
  /** Scenes (by number) the agent did not write: written by hand, or imported. */
  writtenBy?: Record<number, "hand" | "import">;
}

/** The memory actions of the plan review mode shows, as the planner writes them (ids, JSON). */
const PLAN_ACTIONS: PlanAction_Serialize[] = [
  { id: "a0", tool: "memory.search", args: { query: "the ledger's missing page" }, reason: "What does she know of the ledger?", dependencies: [], required: true },
  { id: "a1", tool: "character.update", args: { id: "C0", changes: { emotional_state: "resolved" } }, reason: "", dependencies: [], required: true },
  { id: "a2", tool: "relationship.update", args: { character_a: "C0", character_b: "C1", status: "strained" }, reason: "", dependencies: ["a1"], required: false },
];

/** Review mode's memory changes in every proposal of the mock. */
export const REVIEW_CHANGES = [
  { index: 0, category: "new_character", subject: "Bram Hollis", summary: "A dockhand who owes Tamsin a favour.", lines: [] },
  {
    index: 1,
    category: "relationship",
    subject: "Tamsin Vale and Bram",
    summary: "Tamsin and Bram: wary allies.",
    lines: [
      { label: "Kind", before: "", after: "ally" },
      { label: "Where it stands", before: "strangers", after: "wary" },
    ],
  },
  { index: 2, category: "loop_opened", subject: "Who tipped off the watch?", summary: "Someone knew where she would land.", lines: [] },
] as const;

/** A word diff of two texts: the common start and end, the middle removed then added. */
function wordDiff(a: string, b: string): DiffRun[] {
  const x = a.split(/(\s+)/);
  const y = b.split(/(\s+)/);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  const runs: DiffRun[] = [
    { kind: "same", text: x.slice(0, i).join("") },
    { kind: "removed", text: x.slice(i, x.length - j).join("") },
    { kind: "added", text: y.slice(i, y.length - j).join("") },
    { kind: "same", text: x.slice(x.length - j).join("") },
  ];
  return runs.filter((r) => r.text !== "");
}

interface Call {
  cmd: string;
  args: Record<string, unknown>;
}

declare global {
  interface Window {
    __calls: Call[];
    __emitChange: (reason: ChangeReason) => Promise<void>;
    __TAURI_INTERNALS__: { runCallback: (id: number, data: unknown) => void };
  }
}

interface ChannelLike {
  id: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function clean(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = k === "onEvent" ? "[channel]" : v;
  return out;
}

export function createBackend(s: Scenario) {
  window.__calls = [];
  const delay = s.delayMs ?? 3;
  let open = s.novel ?? false;
  let title = "Salt and Iron";
  let scenes: SceneView_Serialize[] = Array.from({ length: open ? (s.scenes ?? 2) : 0 }, (_, i) =>
    scene(i + 1, i === 0 && s.hostile ? HOSTILE_PROSE : PROSE),
  );
  const row = (sc: SceneView_Serialize) => {
    const by = s.writtenBy?.[sc.tick];
    return by ? ownRow(sc.tick, sc.title, by) : timelineRow(sc.tick, sc.title);
  };
  let rows: TimelineRow_Serialize[] = scenes.map(row);
  let pending: FailureView | null = null;
  let providers: ProvidersView_Serialize = s.providers ?? structuredClone(PROVIDERS);
  let recent: RecentNovel_Serialize[] = s.recent ?? [];
  let ticksRun = 0;
  let control: { stop: boolean; cancel: boolean } | null = null;
  const errorsOnce = { ...(s.errorsOnce ?? {}) };
  // History: every version of every scene, the one each scene shows, and the branches (each
  // with the scenes it holds).
  let nextVersion = 100;
  const versions: SceneVersion_Serialize[] = [];
  const shown = new Map<number, number>();
  const addVersion = (sc: SceneView_Serialize, origin: SceneVersion_Serialize["origin"]) => {
    const v: SceneVersion_Serialize = {
      id: nextVersion++,
      tick: sc.tick,
      branch,
      origin,
      title: sc.title,
      prose: sc.prose,
      words: sc.word_count,
      change_seq: null,
      created_at: `2025-11-20T10:${String(nextVersion % 60).padStart(2, "0")}:00Z`,
    };
    versions.push(v);
    shown.set(sc.tick, v.id);
    return v;
  };
  let branch = "main";
  const lines = new Map<string, { scenes: SceneView_Serialize[]; created_at: string }>();
  for (const sc of scenes) addVersion(sc, "revision");
  let review: ((v: Verdict_Deserialize) => void) | null = null;
  let planReview: ((v: PlanVerdict_Deserialize) => void) | null = null;

  const fail = (tick: number, message: string, kind: ErrorKind = "llm.server"): FailureView => ({
    tick,
    at: "2025-11-20T10:05:00Z",
    kind,
    message,
    error_file: `${NOVEL_PATH}/errors/error_${String(tick).padStart(3, "0")}.json`,
  });
  let failedDraft: string | null = s.failedDraft ?? null;
  /** What the next run commits instead of its script (a draft kept to finish by hand). */
  let keptDraft: string | null = null;
  if (open && s.pendingFailure) {
    const kind = s.pendingFailure === true ? "llm.server" : s.pendingFailure;
    pending = fail(scenes.length + 1, "The provider answered with HTTP 500 (server error): the model crashed", kind);
    rows.push({ ...timelineRow(pending.tick, ""), status: "failed", title: null, tools: [], findings: [], tokens: 0, calls: 1, error: pending });
  }

  const changed = (reason: ChangeReason) => emit("novel-changed", { path: open ? NOVEL_PATH : null, reason });
  window.__emitChange = changed;
  const ov = () => {
    const o = overview(scenes, pending, failedDraft);
    const search_notice = s.keywordSearchOnly ? "Semantic search is off: the local embedding model is not installed." : o.search_notice;
    const write_again_refusal = s.writeAgainRefusal ?? o.write_again_refusal;
    return { ...o, search_notice, write_again_refusal, branch, generation: { ...o.generation, review_before_commit: Boolean(s.review) }, foundation: { ...o.foundation, title } };
  };
  const need = () => {
    if (!open) throw { kind: "no_novel_open", message: "No novel is open. Open one from the Library or start a new one." } satisfies AppError;
  };

  async function run(n: number, steering: string | null, channel: ChannelLike, again = false): Promise<RunReport_Serialize> {
    need();
    if (control) throw { kind: "busy", message: "A scene is being written. Wait for it to finish, or press Stop." } satisfies AppError;
    control = { stop: false, cancel: false };
    let index = 0;
    const send = (message: RunEvent_Serialize) => {
      window.__TAURI_INTERNALS__.runCallback(channel.id, { index: index++, message });
    };
    const report: RunReport_Serialize = { requested: n, committed: [], end: "completed", failure: null };
    try {
      for (let i = 1; i <= n; i++) {
        if (control.stop) {
          report.end = "stopped";
          break;
        }
        const script = s.ticks?.[ticksRun] ?? {};
        ticksRun += 1;
        const wait = script.delayMs ?? delay;
        const tick = again ? scenes.length : scenes.length + 1;
        const tickEvent = async (event: TickEvent_Serialize) => {
          if (control?.cancel) throw new Error("cancelled");
          send({ type: "tick", index: i, total: n, event });
          await sleep(wait);
        };
        const stream = async (text: string) => {
          const chunks = text.match(/[\s\S]{1,40}/g) ?? [];
          for (const chunk of chunks) await tickEvent({ type: "prose_delta", text: chunk });
        };
        try {
          if (script.retry) {
            // As the engine does: the failed attempt is announced, then the tick starts again.
            await tickEvent({ type: "started", tick });
            await tickEvent({ type: "stage", stage: "writing" });
            await stream("A draft the checks could not keep.");
            const error_file = `${NOVEL_PATH}/errors/error_${String(tick).padStart(3, "0")}.json`;
            send({
              type: "retrying",
              index: i,
              attempt: 1,
              retries: 2,
              failure: { tick, stage: "revising", kind: "prose_rejected", message: script.retry, error_file, text: `tick ${tick} failed while revising: ${script.retry}` },
            });
            await sleep(wait);
          }
          await tickEvent({ type: "started", tick });
          await tickEvent({ type: "stage", stage: "gathering" });
          await tickEvent({ type: "stage", stage: "planning" });
          await tickEvent({
            type: "planned",
            plan: {
              rationale: steering ? `The writer asked: ${steering}` : "Tamsin needs an ally to hide from the watch.",
              scene_intention: "Tamsin persuades a dockhand to hide her from the harbor watch.",
              pov_character: "C0",
              target_location: "L0",
              beat: null,
              actions: [],
              expected_outcomes: [],
            },
          });
          await tickEvent({ type: "usage", role: "planner", prompt_tokens: 900, completion_tokens: 120 });
          if (s.review) {
            const answer = new Promise<PlanVerdict_Deserialize>((resolve) => (planReview = resolve));
            await tickEvent({
              type: "awaiting_plan_review",
              plan: { rationale: "Tamsin needs an ally.", scene_intention: "Tamsin persuades a dockhand to hide her.", pov_character: "C0", target_location: "L0", beat: null, actions: PLAN_ACTIONS, expected_outcomes: [] },
            });
            const verdict = await answer;
            planReview = null;
            if (verdict.decision === "reject") {
              report.end = "rejected";
              break;
            }
          }
          await tickEvent({ type: "stage", stage: "tools" });
          await tickEvent({ type: "tool_finished", id: "recall", tool: "memory.search", ok: true, detail: '{"hits":2}' });
          await tickEvent({ type: "tool_finished", id: "a1", tool: "character.generate", ok: false, detail: "name taken" });
          if (script.outcome === "fail" && keptDraft === null) {
            await tickEvent({ type: "stage", stage: "writing" });
            if (script.partial) await stream(script.partial);
            failedDraft = script.partial ?? null;
            const failure = fail(tick, script.message ?? "The provider answered with HTTP 500 (server error): the model crashed", script.kind);
            pending = failure;
            rows.push({ ...timelineRow(tick, ""), status: "failed", title: null, error: failure, findings: [], tools: [] });
            report.end = "failed";
            report.failure = { tick, stage: "writing", kind: failure.kind, message: failure.message, error_file: failure.error_file, text: `tick ${tick} failed while writing the scene: ${failure.message}` };
            break;
          }
          const prose = keptDraft ?? script.prose ?? PROSE;
          keptDraft = null;
          await tickEvent({ type: "stage", stage: "writing" });
          await stream(script.revise ? "A first draft that leaks: he didn't realize she was watching." : prose);
          await tickEvent({ type: "usage", role: "writer", prompt_tokens: 1400, completion_tokens: 800 });
          await tickEvent({ type: "stage", stage: "checking" });
          const findings = script.findings ?? [
            { check: "length", severity: "warning", message: "The scene has 120 words; the target is 500–900.", excerpt: null },
          ];
          await tickEvent({ type: "findings", findings });
          if (script.revise) {
            await tickEvent({ type: "stage", stage: "revising" });
            await stream(prose);
          }
          await tickEvent({ type: "stage", stage: "extracting" });
          await tickEvent({ type: "usage", role: "extractor", prompt_tokens: 700, completion_tokens: 200 });
          let finalProse = prose;
          if (s.review) {
            const answer = new Promise<Verdict_Deserialize>((resolve) => (review = resolve));
            await tickEvent({
              type: "awaiting_review",
              proposal: {
                tick,
                plan: { rationale: "r", scene_intention: "Tamsin persuades a dockhand to hide her.", pov_character: "C0", target_location: "L0", beat: null, actions: [], expected_outcomes: [] },
                tools: [{ tool: "memory.search", ok: true, detail: '{"hits":2}' }],
                title: script.title ?? scene(tick).title,
                summary: ["Bram hides her in the flooded cellar."],
                tension: 6,
                prose,
                findings,
                changes: REVIEW_CHANGES.map((c) => ({ ...c, lines: [...c.lines] })),
                // As the engine words them (names, never ids): the words guard reads them.
                notes: ['the plan gave its place as "the docks": taken to be Rainmarket Docks', "extraction: left out the change to a character the story does not have"],
              },
            });
            const verdict = await answer;
            review = null;
            if (verdict.decision === "reject") {
              report.end = "rejected";
              break;
            }
            if (verdict.prose) finalProse = verdict.prose;
          }
          await tickEvent({ type: "stage", stage: "committing" });
          const sc = { ...scene(tick, finalProse), title: script.title ?? scene(tick).title };
          if (script.revise) addVersion({ ...sc, prose: "A first draft that leaks: he didn't realize she was watching." }, "draft");
          if (again) {
            scenes = [...scenes.slice(0, -1), sc];
            addVersion(sc, "regeneration");
          } else {
            scenes = [...scenes, sc];
            addVersion(sc, "revision");
          }
          if (pending?.tick === tick) {
            rows = rows.map((r) => (r.tick === tick && r.status === "failed" ? { ...r, status: "failed_resolved" } : r));
            pending = null;
          }
          rows.push({ ...timelineRow(tick, sc.title), findings });
          await tickEvent({ type: "committed", tick, scene_id: sc.id, title: sc.title, words: sc.word_count });
          const summary: TickSummary_Serialize = {
            tick,
            scene_id: sc.id,
            title: sc.title,
            words: sc.word_count,
            summary: sc.summary,
            calls: 3,
            tokens: 4120,
            revised: Boolean(script.revise),
            findings,
            usage: script.usage ?? { roles: {} },
            files: [],
            notes: [],
          };
          report.committed.push(summary);
          send({ type: "tick_committed", summary });
          void changed("tick_committed");
        } catch (e) {
          if (e instanceof Error && e.message === "cancelled") {
            report.end = "cancelled";
            report.failure = { tick, stage: null, kind: "cancelled", message: `tick ${tick} was cancelled`, error_file: null, text: `tick ${tick} was cancelled; the story is unchanged` };
            break;
          }
          throw e;
        }
      }
      if (report.end === "completed" && report.committed.length < n) report.end = "stopped";
      if (report.end === "rejected") report.committed = [];
      send({ type: "finished", report });
      if (report.end === "failed") void changed("tick_failed");
      return report;
    } finally {
      control = null;
    }
  }

  const importing = importHandlers(s, {
    delay,
    openNew: async (name) => {
      open = true;
      title = name;
      scenes = [];
      rows = [];
      pending = null;
      await changed("opened");
    },
    addScene: (tick) => {
      const sc = scene(tick);
      scenes = [...scenes, sc];
      rows = [...rows, ownRow(sc.tick, sc.title, "import")];
    },
    overview: () => ov(),
    busy: () => control !== null,
  });

  const handlers: Record<string, (a: Record<string, unknown>) => unknown> = {
    recent_novels: () => recent,
    forget_recent_novel: (a) => {
      recent = recent.filter((r) => r.path !== a.path);
      return null;
    },
    open_novel: (a) => {
      const r = recent.find((x) => x.path === a.path);
      if (a.path !== NOVEL_PATH && !r) throw { kind: "not_found", message: `${String(a.path)} is not a novel folder.` } satisfies AppError;
      open = true;
      if (r) title = r.title;
      if (scenes.length === 0 && (s.scenes ?? 2) > 0) {
        scenes = Array.from({ length: s.scenes ?? 2 }, (_, i) => scene(i + 1));
        rows = scenes.map(row);
      }
      void changed("opened");
      return ov();
    },
    create_novel: (a) => {
      const form = a.form as NewNovelForm;
      if (!String(a.parentDir).startsWith("/")) {
        throw { kind: "invalid_input", message: `Choose an existing folder to keep the novel in (${String(a.parentDir)} is not one).` } satisfies AppError;
      }
      open = true;
      title = form.title;
      scenes = [];
      rows = [];
      pending = null;
      void changed("opened");
      return ov();
    },
    close_novel: () => {
      open = false;
      void changed("closed");
      return null;
    },
    current_novel: () => (open ? ov() : null),
    run_ticks: (a) => run(Number(a.n), (a.steering as string | null) ?? null, a.onEvent as ChannelLike),
    regenerate_scene: (a) => {
      need();
      if (scenes.length === 0) throw { kind: "invalid_input", message: "There is no scene to write again yet. Write one with Next scene." } satisfies AppError;
      return run(1, (a.steering as string | null) ?? null, a.onEvent as ChannelLike, true);
    },
    keep_failed_draft: (a) => {
      need();
      if (!pending) throw { kind: "invalid_input", message: "there is no failed draft to keep" } satisfies AppError;
      const tick = pending.tick;
      rows = rows.map((r) => (r.tick === tick && r.status === "failed" ? { ...r, status: "failed_resolved" } : r));
      pending = null;
      // Kept to finish: the draft itself is committed; kept anyway, as the next scripted tick commits.
      if (a.toFinish) keptDraft = failedDraft;
      failedDraft = null;
      return run(1, null, a.onEvent as ChannelLike);
    },
    plan_decision: (a) => {
      if (!planReview) throw { kind: "invalid_input", message: "Nothing is waiting for your review now." } satisfies AppError;
      planReview(a.verdict as PlanVerdict_Deserialize);
      return null;
    },
    review_decision: (a) => {
      if (!review) throw { kind: "invalid_input", message: "Nothing is waiting for your review now." } satisfies AppError;
      review(a.verdict as Verdict_Deserialize);
      return null;
    },
    scene_versions: (a) => {
      need();
      const tick = Number(a.tick);
      return { tick, versions: versions.filter((v) => v.tick === tick), current: shown.get(tick) ?? null };
    },
    version_diff: (a) => {
      const from = versions.find((v) => v.id === a.from);
      const to = versions.find((v) => v.id === a.to);
      if (!from || !to) throw { kind: "not_found", message: "There is no such version in this novel." } satisfies AppError;
      return wordDiff(from.prose, to.prose);
    },
    restore_version: (a) => {
      need();
      const v = versions.find((x) => x.id === a.version);
      if (!v) throw { kind: "not_found", message: "There is no such version in this novel." } satisfies AppError;
      const sc = { ...scenes.find((x) => x.tick === v.tick)!, prose: v.prose, title: v.title, word_count: v.words };
      scenes = scenes.map((x) => (x.tick === v.tick ? sc : x));
      addVersion(sc, "restore");
      void changed("version_restored");
      return sc;
    },
    rewind_to: (a) => {
      need();
      const tick = Number(a.tick);
      if (s.declineRewind) throw { kind: "declined", message: `Not rewound: the story still goes on after scene ${tick}.` } satisfies AppError;
      let kept: string | null = null;
      if (tick < scenes.length) {
        kept = `${branch}-${lines.size + 2}`;
        lines.set(kept, { scenes, created_at: "2025-11-20T11:00:00Z" });
        scenes = scenes.slice(0, tick);
      }
      void changed("rewound");
      return { tick, kept_in: kept };
    },
    branches: (): BranchRow_Serialize[] => {
      need();
      const row = (name: string, list: SceneView_Serialize[], created_at: string): BranchRow_Serialize => ({
        name,
        current: name === branch,
        tick: list.length,
        last_title: list[list.length - 1]?.title ?? null,
        created_at,
      });
      return [row(branch, scenes, "2025-11-20T09:00:00Z"), ...[...lines].map(([name, l]) => row(name, l.scenes, l.created_at))];
    },
    switch_branch: (a) => {
      need();
      const target = lines.get(String(a.name));
      if (!target) throw { kind: "not_found", message: `There is no branch called "${String(a.name)}" any more.` } satisfies AppError;
      lines.delete(String(a.name));
      lines.set(branch, { scenes, created_at: "2025-11-20T09:00:00Z" });
      branch = String(a.name);
      scenes = target.scenes;
      void changed("branch_changed");
      return null;
    },
    new_branch: (a) => {
      need();
      const name = String(a.name);
      if (name === branch || lines.has(name)) throw { kind: "invalid_input", message: `A branch called "${name}" already exists.` } satisfies AppError;
      lines.set(branch, { scenes, created_at: "2025-11-20T09:00:00Z" });
      branch = name;
      if (a.at !== null) scenes = scenes.slice(0, Number(a.at));
      void changed("branch_changed");
      return name;
    },
    rename_branch: (a) => {
      const [from, to] = [String(a.name), String(a.newName)];
      if (from === branch) branch = to;
      else {
        const l = lines.get(from)!;
        lines.delete(from);
        lines.set(to, l);
      }
      void changed("branch_changed");
      return to;
    },
    delete_branch: (a) => {
      lines.delete(String(a.name));
      void changed("branch_changed");
      return null;
    },
    compare_branches: (a) => {
      const tick = Number(a.tick);
      const at = (name: string, list: SceneView_Serialize[]) => {
        const sc = list.find((x) => x.tick === tick);
        return { branch: name, current: name === branch, scene: sc ? (versions.find((v) => v.tick === tick && v.prose === sc.prose) ?? null) : null };
      };
      return [at(branch, scenes), ...[...lines].map(([name, l]) => at(name, l.scenes))];
    },
    stop_run: (a) => {
      if (importing.stop(Boolean(a.cancel))) return true;
      if (!control) return false;
      control.stop = true;
      if (a.cancel) control.cancel = true;
      return true;
    },
    manuscript: () => {
      need();
      return scenes;
    },
    save_scene: (a) => {
      need();
      const i = scenes.findIndex((x) => x.tick === a.tick);
      if (i < 0) throw { kind: "not_found", message: `there is no scene for tick ${String(a.tick)}` } satisfies AppError;
      const prose = String(a.prose);
      scenes = scenes.map((x, j) => (j === i ? { ...x, prose, word_count: prose.split(/\s+/).filter(Boolean).length } : x));
      void changed("scene_edited");
      return scenes[i];
    },
    // The checks, imitated: a death stated as fact is knowledge the POV character cannot have.
    check_scene: (a): Finding_Serialize[] => {
      need();
      const found = scenes.find((x) => x.tick === a.tick);
      if (!found) throw { kind: "not_found", message: `There is no scene for tick ${String(a.tick)}; \`novel list scenes\` shows them.` } satisfies AppError;
      const sentenceAt = (at: number) => found.prose.slice(found.prose.lastIndexOf(".", at) + 1, found.prose.indexOf(".", at) + 1).trim();
      const out: Finding_Serialize[] = [];
      // An uncertain case is a note: one sentence out of tense.
      const drift = found.prose.indexOf(" walks ");
      if (drift >= 0) {
        const sentence = sentenceAt(drift);
        out.push({ check: "tense_drift", severity: "note", message: `One narration sentence is in the present tense: “${sentence}”.`, excerpt: sentence });
      }
      const at = found.prose.indexOf("was dead");
      if (at < 0) return out;
      const sentence = sentenceAt(at);
      return [
        {
          check: "off_page",
          severity: "violation",
          message: `Tamsin Vale cannot know that Silas Crane is dead: “${sentence}”.`,
          excerpt: sentence,
          record: "C3",
        },
        ...out,
      ];
    },
    story_graph: (): StoryGraph_Serialize => {
      need();
      if (s.graphSize) return bigGraph(s.graphSize);
      if (s.unlinked) return graphWithUnlinked(s.unlinked);
      if (scenes.length === 0) return { nodes: GRAPH.nodes.filter((n) => n.id === "C0" || n.id === "L0"), edges: [GRAPH.edges[0]] };
      return GRAPH;
    },
    entity_detail: (a) => {
      need();
      const d = entity(String(a.id));
      if (!d) throw { kind: "not_found", message: `There is no character, place or other record called ${String(a.id)}.` } satisfies AppError;
      return d;
    },
    timeline: () => {
      need();
      return rows;
    },
    skip_failed_tick: (a) => {
      need();
      if (!pending || pending.tick !== a.tick) throw { kind: "not_found", message: `tick ${String(a.tick)} has no failure to skip` } satisfies AppError;
      rows = rows.map((r) => (r.tick === a.tick && r.status === "failed" ? { ...r, status: "failed_resolved" } : r));
      pending = null;
      void changed("failure_skipped");
      return null;
    },
    loops_board: () => {
      need();
      return s.abandonedLoop ? [...LOOPS, ABANDONED_LOOP] : LOOPS;
    },
    list_providers: () => providers,
    save_provider: (a) => {
      const p = a.profile as ProviderProfile_Deserialize;
      if (p.key_source === "keychain" && p.api_key_env) {
        throw { kind: "provider", message: "both `api_key_env` and `key_source = \"keychain\"` are set" } satisfies AppError;
      }
      const row = {
        profile: { timeout_secs: 120, max_retries: 2, retry_base_delay_ms: 500, ...p } as ProvidersView_Serialize["profiles"][number]["profile"],
        key_ready: p.kind === "command" || p.key_source === "keychain" || !p.api_key_env,
        key_problem: null,
      };
      const others = providers.profiles.filter((r) => r.profile.name !== p.name);
      providers = {
        ...providers,
        profiles: [...others, row],
        default_profile: a.makeDefault || !providers.default_profile ? p.name : providers.default_profile,
      };
      return providers;
    },
    delete_provider: (a) => {
      providers = { ...providers, profiles: providers.profiles.filter((r) => r.profile.name !== a.name) };
      if (providers.default_profile === a.name) providers.default_profile = providers.profiles[0]?.profile.name ?? null;
      return providers;
    },
    set_default_provider: (a) => {
      providers = { ...providers, default_profile: String(a.name) };
      return providers;
    },
    test_provider: async (a) => {
      await sleep(20);
      const probe = s.probe ?? {
        profile: String(a.name),
        kind: "openai-compatible",
        model: "qwen2.5-14b-instruct",
        latency_ms: 412,
        structured_output: true,
        prompt_tokens: 31,
        completion_tokens: 9,
        capabilities: { json_schema: true, json_object: true, temperature: false },
        json_mode: "json_schema",
        tokens: "server",
        context_length: 16384,
      };
      if ("message" in probe) throw probe;
      return probe;
    },
    store_provider_key: (a) => {
      providers = {
        ...providers,
        profiles: providers.profiles.map((r) =>
          r.profile.name === a.name ? { ...r, profile: { ...r.profile, key_source: "keychain", api_key_env: undefined }, key_ready: true, key_problem: null } : r,
        ),
      };
      return providers;
    },
    save_generation_settings: () => {
      need();
      void changed("settings_saved");
      return ov();
    },
    // The shell opens the save dialog itself: the page sends only the format, never a path.
    export_manuscript: (a) => {
      need();
      const path = s.dialog?.save ?? null;
      if (path === null) return null;
      const extension = ({ markdown: "md", epub: "epub", docx: "docx" } as Record<string, string>)[String(a.format)];
      if (!extension) throw { kind: "invalid_input", message: `unknown format ${String(a.format)}` };
      return /\.[a-z]+$/.test(path) ? path : `${path}.${extension}`;
    },
    "plugin:dialog|open": () => s.dialog?.open ?? null,
    ...bibleHandlers({ need, changed, scenes: () => scenes }),
    ...readerHandlers({ need, changed, scenes: () => scenes, setScenes: (next) => (scenes = next), meaningOff: () => ov().search_notice ?? null }),
    ...providersHandlers(s, { need, changed, providers: () => providers }),
    ...importing.handlers,
    ...replaceHandlers({ need, changed, scenes: () => scenes, setScenes: (next) => (scenes = next) }),
    ...synopsisHandlers({ need, scenes: () => scenes }),
    ...auditHandlers({ need, scenes: () => scenes }),
  };

  return {
    async handle(cmd: string, args: Record<string, unknown>) {
      window.__calls.push({ cmd, args: clean(args) });
      const once = errorsOnce[cmd];
      if (once) {
        delete errorsOnce[cmd];
        throw once;
      }
      const always = s.errors?.[cmd];
      if (always) throw always;
      const handler = handlers[cmd];
      if (!handler) throw { kind: "invalid_input", message: `the mock has no command ${cmd}` } satisfies AppError;
      return handler(args);
    },
  };
}

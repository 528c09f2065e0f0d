// The mocked import (`import_manuscript`, `resume_import`, `import_status`): the shell's open
// dialog answers the scenario's `importFile` (null: cancelled), the new novel is opened, and
// its scenes are adopted one by one with `started` / `scene` events over the Channel. Stop
// (`stop_run` with `cancel`) ends it after the scene in progress; a resume carries on from the
// first scene not adopted, as the engine does. With `importPauseAfter` the import holds still
// once that many scenes are in, until Stop: a test sees that progress and stops there without
// racing the mock's timer.
import type { AppError, ImportEvent, ImportOutcome_Serialize, ImportProgress, NewNovelForm, NovelOverview_Serialize } from "../../src/bindings";

export interface ImportScenario {
  /** What the shell's manuscript open dialog answers; null or absent: cancelled. */
  importFile?: string | null;
  /** Scenes in the manuscript (default 4). */
  importScenes?: number;
  /** The extraction call of this scene (1-based) fails once. */
  importFailAt?: number;
  /**
   * Once this many scenes are in, the import waits (its progress shown, nothing else sent) until
   * Stop is pressed; then it stops there, keeping them. Only the first time: a resume runs on.
   */
  importPauseAfter?: number;
}

interface ChannelLike {
  id: number;
}

interface Deps {
  delay: number;
  /** Opens a new empty novel titled `title` as the current one. */
  openNew: (title: string) => Promise<void>;
  /** Adds scene `tick` to the open novel. */
  addScene: (tick: number) => void;
  overview: () => NovelOverview_Serialize;
  busy: () => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function importHandlers(s: ImportScenario, d: Deps) {
  let job: { source: string; done: number; total: number } | null = null;
  let failAt = s.importFailAt ?? null;
  let pauseAfter = s.importPauseAfter ?? null;
  let control: { cancel: boolean; release?: () => void } | null = null;

  const progress = (): ImportProgress | null => (job ? { ...job, finished: job.done === job.total } : null);

  async function adopt(channel: ChannelLike): Promise<ImportOutcome_Serialize> {
    if (!job) throw { kind: "invalid_input", message: "This novel has no import to resume. Start one from the Library with Import manuscript." } satisfies AppError;
    if (control || d.busy()) throw { kind: "busy", message: "A scene is being written. Wait for it to finish, or press Stop." } satisfies AppError;
    control = { cancel: false };
    let index = 0;
    const send = (message: ImportEvent) => window.__TAURI_INTERNALS__.runCallback(channel.id, { index: index++, message });
    try {
      send({ type: "started", source: job.source, done: job.done, total: job.total });
      let stopped: string | null = null;
      while (job.done < job.total) {
        if (pauseAfter === job.done) {
          pauseAfter = null;
          const held = control;
          if (!held.cancel) await new Promise<void>((resolve) => (held.release = resolve));
        }
        await sleep(d.delay);
        if (control.cancel) {
          stopped = `You stopped the import after ${job.done} of ${job.total} scenes. Resume the import to carry on from scene ${job.done + 1}.`;
          break;
        }
        if (failAt === job.done + 1) {
          failAt = null;
          stopped = `The import stopped: the provider answered with HTTP 500 after ${job.done} of ${job.total} scenes. Resume the import to carry on from scene ${job.done + 1}.`;
          break;
        }
        job.done += 1;
        d.addScene(job.done);
        send({ type: "scene", done: job.done, total: job.total });
      }
      return { overview: d.overview(), progress: progress()!, stopped };
    } finally {
      control = null;
    }
  }

  return {
    /** Stop pressed: true when an import was running. */
    stop(cancel: boolean): boolean {
      if (!control) return false;
      if (cancel) {
        control.cancel = true;
        control.release?.();
      }
      return true;
    },
    handlers: {
      import_manuscript: async (a: Record<string, unknown>) => {
        const parent = String(a.parentDir);
        if (!parent.startsWith("/")) throw { kind: "invalid_input", message: `Choose an existing folder to keep the novel in (${parent} is not one).` } satisfies AppError;
        const file = s.importFile ?? null;
        if (file === null) return null;
        const form = a.form as NewNovelForm;
        const source = file.split("/").pop()!;
        await d.openNew(form.title.trim() || "The Salt Road");
        job = { source, done: 0, total: s.importScenes ?? 4 };
        return adopt(a.onEvent as ChannelLike);
      },
      resume_import: (a: Record<string, unknown>) => adopt(a.onEvent as ChannelLike),
      import_status: () => progress(),
    } as Record<string, (a: Record<string, unknown>) => unknown>,
  };
}

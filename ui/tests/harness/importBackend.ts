// The mocked import (`preview_import`, `import_manuscript`, `resume_import`, `import_status`):
// the shell's open dialog answers the scenario's `importFile` (null: cancelled) and the preview
// is the split of a Gutenberg-like book (front matter, two parts, chapters, scenes, proposed
// seeds); Import refuses without a preview and takes the scenes of the chapters the confirmed
// shape brings in. The new novel is opened, and its scenes are adopted one by one with `started` / `scene` events over the Channel. Stop
// (`stop_run` with `cancel`) ends it after the scene in progress; a resume carries on from the
// first scene not adopted, as the engine does. With `importPauseAfter` the import holds still
// once that many scenes are in, until Stop: a test sees that progress and stops there without
// racing the mock's timer.
import type {
  AppError,
  ImportEvent,
  ImportOutcome_Serialize,
  ImportPreview_Serialize,
  ImportProgress,
  ImportShape,
  NewNovelForm,
  NovelOverview_Serialize,
} from "../../src/bindings";

export interface ImportScenario {
  /** What the shell's manuscript open dialog answers; null or absent: cancelled. */
  importFile?: string | null;
  /** Scenes in the manuscript (default 4), one per chapter after the opening pages. */
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

const FIRST_WORDS = [
  "SQUIRE TRELAWNEY, Dr. Livesey, and the rest of these gentlemen having asked…",
  "IT was not very long after this that there occurred the first…",
  "ABOUT noon I stopped at the captain’s door with some cooling drinks…",
  "IT was longer than the squire imagined ere we were ready for…",
  "WHEN I had done breakfasting the squire gave me a note addressed…",
  "I was dead tired when, after a long night, I came down…",
];
const TITLES = [
  "The Old Sea-dog at the Admiral Benbow",
  "Black Dog Appears and Disappears",
  "The Black Spot",
  "I Go to Bristol",
  "At the Sign of the Spy-glass",
  "Powder and Arms",
];

/** The split of a manuscript of `scenes` chapters, a scene each, after its opening pages. */
export function previewOf(source: string, scenes: number): ImportPreview_Serialize {
  const half = Math.ceil(scenes / 2);
  const chapters = Array.from({ length: scenes }, (_, i) => ({
    title: TITLES[i % TITLES.length],
    part: i === 0 ? "Part One — The Old Buccaneer" : i === half ? "Part Two — The Sea-cook" : null,
    front_matter: false,
    words: 2000 + i * 37,
    scenes: [{ first_words: FIRST_WORDS[i % FIRST_WORDS.length], words: 2000 + i * 37 }],
  }));
  return {
    source,
    title: "Treasure Island",
    author: "Robert Louis Stevenson",
    chapters: [{ title: "Opening pages", part: null, front_matter: true, words: 723, scenes: [{ first_words: "TREASURE ISLAND by Robert Louis Stevenson TREASURE ISLAND To S.L.O., an American…", words: 723 }] }, ...chapters],
    proposals: {
      premise: "SQUIRE TRELAWNEY, Dr. Livesey, and the rest of these gentlemen having asked me to write down the whole particulars about Treasure Island…",
      protagonist: "Jim",
      place: "Bristol",
    },
    words: chapters.reduce((n, c) => n + c.words, 0),
    paragraphs: scenes * 38,
  };
}

export function importHandlers(s: ImportScenario, d: Deps) {
  let job: { source: string; done: number; total: number } | null = null;
  let previewed: ImportPreview_Serialize | null = null;
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
      preview_import: async () => {
        const file = s.importFile ?? null;
        if (file === null) return null;
        await sleep(d.delay);
        previewed = previewOf(file.split("/").pop()!, s.importScenes ?? 4);
        return previewed;
      },
      import_manuscript: async (a: Record<string, unknown>) => {
        const parent = String(a.parentDir);
        if (!parent.startsWith("/")) throw { kind: "invalid_input", message: `Choose an existing folder to keep the novel in (${parent} is not one).` } satisfies AppError;
        if (!previewed) throw { kind: "invalid_input", message: "Choose the manuscript first: Library → Import manuscript." } satisfies AppError;
        const shape = a.shape as ImportShape;
        if (shape.chapters.length !== previewed.chapters.length) throw { kind: "invalid_input", message: "The confirmed split has another number of chapters; preview it again." } satisfies AppError;
        const form = a.form as NewNovelForm;
        const total = previewed.chapters.reduce((n, c, i) => n + (shape.chapters[i].included ? c.scenes.length : 0), 0);
        await d.openNew(form.title.trim() || previewed.title || "Untitled");
        job = { source: previewed.source, done: 0, total };
        previewed = null;
        return adopt(a.onEvent as ChannelLike);
      },
      resume_import: (a: Record<string, unknown>) => adopt(a.onEvent as ChannelLike),
      import_status: () => progress(),
    } as Record<string, (a: Record<string, unknown>) => unknown>,
  };
}

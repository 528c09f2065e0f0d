// The mocked whole-book replace (`preview_replace_name`, `replace_name`): whole words only,
// case as given, across every scene's prose, title and summary, as the engine does; the bearer
// is the character named exactly so, else the only one whose name holds it as a word.
import type { AppError, ChangeReason, ReplacePreview_Serialize, ReplaceReport_Serialize, SceneView_Serialize } from "../../src/bindings";
import { GRAPH } from "./fixtures";

interface Deps {
  need: () => void;
  changed: (reason: ChangeReason) => Promise<void>;
  scenes: () => SceneView_Serialize[];
  setScenes: (scenes: SceneView_Serialize[]) => void;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordRe = (old: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(old)}(?![\\p{L}\\p{N}_])`, "gu");

function names(a: Record<string, unknown>): [string, string] {
  const old = String(a.from).trim();
  const next = String(a.to).trim();
  if (!old || !next) throw { kind: "invalid_input", message: "give the name to replace and the name to put in its place" } satisfies AppError;
  if (old === next) throw { kind: "invalid_input", message: "the new name is the same as the old one" } satisfies AppError;
  return [old, next];
}

function count(scene: SceneView_Serialize, old: string): number {
  return [scene.prose, scene.title, ...scene.summary].reduce((n, t) => n + (t.match(wordRe(old))?.length ?? 0), 0);
}

function bearer(old: string): string | null {
  const characters = GRAPH.nodes.filter((n) => n.kind === "character").map((n) => n.label);
  if (characters.includes(old)) return old;
  const holding = characters.filter((name) => wordRe(old).test(name));
  return holding.length === 1 ? holding[0] : null;
}

function report(old: string, next: string, scenes: SceneView_Serialize[]): ReplaceReport_Serialize {
  const hit = scenes.filter((s) => count(s, old) > 0);
  return { old, new: next, occurrences: hit.reduce((n, s) => n + count(s, old), 0), scenes: hit.map((s) => s.tick), renamed_record: null };
}

export function replaceHandlers({ need, changed, scenes, setScenes }: Deps): Record<string, (a: Record<string, unknown>) => unknown> {
  return {
    preview_replace_name: (a): ReplacePreview_Serialize => {
      need();
      const [old, next] = names(a);
      return { report: report(old, next, scenes()), bearer: bearer(old) };
    },
    replace_name: (a): ReplaceReport_Serialize => {
      need();
      const [old, next] = names(a);
      const done = report(old, next, scenes());
      const record = a.alias ? bearer(old) : null;
      if (done.occurrences === 0 && !record) {
        throw { kind: "not_found", message: `"${old}" does not appear in the book as a whole word; nothing was changed` } satisfies AppError;
      }
      const swap = (t: string) => t.replace(wordRe(old), next);
      setScenes(scenes().map((s) => (count(s, old) > 0 ? { ...s, prose: swap(s.prose), title: swap(s.title), summary: s.summary.map(swap) } : s)));
      void changed("scene_edited");
      return { ...done, renamed_record: record ? GRAPH.nodes.find((n) => n.label === record)!.id : null };
    },
  };
}

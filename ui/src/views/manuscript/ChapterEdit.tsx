// Editing one chapter from the contents: a menu (rename, split before one of its scenes, merge
// with the next, open or remove a part heading, move it up or down, delete it with its scenes)
// and the small inline form each asks for. Every
// change is one recorded change of the engine's, so a rewind undoes it like any other; the
// contents reload when the novel tells every view it changed.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { ChapterChange_Deserialize as ChapterChange, ChapterView_Serialize as Chapter, SceneChange_Deserialize as SceneChange } from "../../bindings";
import { Icon } from "../../components/Icon";
import { Menu } from "../../components/Menu";
import type { MenuItem } from "../../components/Menu";
import { call, errorText } from "../../lib/api";

type Form = "rename" | "split" | "part" | null;

interface Props {
  chapter: Chapter;
  /** The chapter after it exists: it can be merged into this one. */
  hasNext: boolean;
  /** A change is being written: edits would be refused. */
  disabled: boolean;
  /** Moves and deletes (said in a toast with Undo by the manuscript). */
  onShape: (change: SceneChange) => void;
  /** How many chapters the book has. */
  count: number;
}

export function ChapterEdit({ chapter, hasNext, disabled, onShape, count }: Props) {
  const [form, setForm] = useState<Form>(null);
  const [text, setText] = useState("");
  const [at, setAt] = useState<number>(chapter.scenes[1]?.tick ?? chapter.first_tick);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const change = async (c: ChapterChange) => {
    setBusy(true);
    setError(null);
    try {
      await call(commands.changeChapter(c));
      setForm(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const open = (f: Form, initial = "") => {
    setText(initial);
    setError(null);
    setForm(f);
  };

  const items: MenuItem[] = [
    { id: "chapter-rename", label: "Rename…", onSelect: () => open("rename", chapter.proposed ? "" : chapter.title) },
    ...(chapter.scenes.length > 1 ? [{ id: "chapter-split", label: "Split before a scene…", hint: "The scenes from there on become a new chapter", onSelect: () => open("split") }] : []),
    ...(hasNext ? [{ id: "chapter-merge", label: "Merge with the next chapter", hint: "Keeps this chapter's title", onSelect: () => void change({ change: "merge", chapter: chapter.number }) }] : []),
    chapter.part_title
      ? { id: "chapter-part-remove", label: "Remove the part heading", onSelect: () => void change({ change: "part", chapter: chapter.number, title: null }) }
      : { id: "chapter-part", label: "Open a part here…", onSelect: () => open("part") },
    ...(chapter.number > 1 ? [{ id: "chapter-move-up", label: "Move up", hint: `Before chapter ${chapter.number - 1}`, onSelect: () => onShape({ change: "move_chapter", chapter: chapter.number, before: chapter.number - 1 }) }] : []),
    ...(hasNext
      ? [{ id: "chapter-move-down", label: "Move down", hint: `After chapter ${chapter.number + 1}`, onSelect: () => onShape({ change: "move_chapter", chapter: chapter.number, before: chapter.number + 2 <= count ? chapter.number + 2 : null }) }]
      : []),
    { id: "chapter-delete", label: "Delete chapter and its scenes", hint: "Undo brings them back", onSelect: () => onShape({ change: "delete_chapter", chapter: chapter.number }) },
  ];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form === "rename") void change({ change: "rename", chapter: chapter.number, title: text });
    else if (form === "part") void change({ change: "part", chapter: chapter.number, title: text });
    else if (form === "split") void change({ change: "split", chapter: chapter.number, at_tick: at });
  };

  return (
    <>
      {!disabled && (
        <Menu label={<Icon name="more" size={16} />} title={`Edit chapter ${chapter.number}`} testId="chapter-menu" items={items} className="btn btn-quiet btn-small toc-chapter-menu" />
      )}
      {form && (
        <form className="chapter-form" data-testid="chapter-form" onSubmit={submit}>
          {form === "split" ? (
            <label>
              Start a new chapter at
              <select data-testid="chapter-split-at" value={at} onChange={(e) => setAt(Number(e.target.value))}>
                {chapter.scenes.slice(1).map((s) => (
                  <option key={s.tick} value={s.tick}>
                    Scene {s.tick}: {s.title || "Untitled"}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label>
              {form === "rename" ? `Title of chapter ${chapter.number}` : "Part heading"}
              <input data-testid="chapter-title-input" value={text} autoFocus placeholder={form === "rename" ? chapter.title : "The part's heading, e.g. Part One"} onChange={(e) => setText(e.target.value)} />
            </label>
          )}
          {error && (
            <p className="field-error" role="alert" data-testid="chapter-error">
              {error}
            </p>
          )}
          <div className="chapter-form-actions">
            <button type="submit" className="btn btn-primary btn-small" data-testid="chapter-apply" disabled={busy}>
              {form === "split" ? "Split" : "Save"}
            </button>
            <button type="button" className="btn btn-quiet btn-small" onClick={() => setForm(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {!form && error && (
        <p className="field-error" role="alert" data-testid="chapter-error">
          {error}
        </p>
      )}
    </>
  );
}

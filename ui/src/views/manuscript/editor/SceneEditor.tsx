// Editing one scene: the CodeMirror prose editor, a live word count, Save (button, Ctrl+S),
// Cancel (button, Escape) and Split here (the scene cut at the cursor, unsaved edits included;
// inside a paragraph, the paragraph is split). The text is autosaved as a draft while typing, so switching views or
// closing the app loses nothing; coming back to Edit restores it with a notice. Save clears the
// draft; Cancel asks first when the text differs from the scene, then clears it.
import { useEffect, useRef, useState } from "react";
import { errorText } from "../../../lib/api";
import { plural, wordCount } from "../../../lib/format";
import { useNovel } from "../../../lib/novel";
import type { Scene } from "../../../lib/types";
import { clearDraft, loadDraft, saveDraft } from "./drafts";
import { ProseEditor } from "./ProseEditor";

const AUTOSAVE_MS = 400;

interface Props {
  scene: Scene;
  onCancel: () => void;
  onSave: (tick: number, prose: string) => Promise<void>;
  /** Splits the scene at the cursor: `prose` is the editor's text, `at` a code point index. */
  onSplit?: (prose: string, at: number) => Promise<void>;
}

export function SceneEditor({ scene, onCancel, onSave, onSplit }: Props) {
  const { overview } = useNovel();
  const novel = overview?.path ?? "";
  const lang = overview?.foundation.language?.trim() || "en";
  const [restored] = useState(() => {
    const d = loadDraft(novel, scene.tick);
    return d && d.text !== scene.prose ? d : null;
  });
  const [generation, setGeneration] = useState(0);
  const [initial, setInitial] = useState(restored?.text ?? scene.prose);
  const [notice, setNotice] = useState(restored !== null);
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState(0);
  const timer = useRef<number | null>(null);
  const pending = useRef<string | null>(null);

  const flush = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    if (pending.current === null) return;
    if (pending.current === scene.prose) clearDraft(novel, scene.tick);
    else saveDraft(novel, scene.tick, { text: pending.current, base: scene.prose, savedAt: new Date().toISOString() });
    pending.current = null;
  };
  const flushRef = useRef(flush);
  useEffect(() => {
    flushRef.current = flush;
  });
  // Leaving the view (or the editor) writes what is pending, so nothing typed is lost.
  useEffect(() => () => flushRef.current(), []);

  const change = (next: string) => {
    setText(next);
    setConfirming(false);
    pending.current = next;
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(flush, AUTOSAVE_MS);
  };

  const forget = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
    clearDraft(novel, scene.tick);
  };

  const save = async () => {
    if (saving) return;
    if (text.trim() === "") {
      setError("A scene cannot be empty. Cancel to keep the current prose.");
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(scene.tick, text);
      forget();
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };

  // Text on both sides of the cursor: a split there leaves two scenes.
  const canSplit = text.slice(0, cursor).trim() !== "" && text.slice(cursor).trim() !== "";
  const split = async () => {
    if (!onSplit || saving || !canSplit) return;
    setSaving(true);
    setError(null);
    try {
      await onSplit(text, Array.from(text.slice(0, cursor)).length);
      forget();
    } catch (e) {
      setError(errorText(e));
      setSaving(false);
    }
  };

  const cancel = () => {
    if (text !== scene.prose && !confirming) {
      setConfirming(true);
      return;
    }
    forget();
    onCancel();
  };

  const discardDraft = () => {
    forget();
    setNotice(false);
    setInitial(scene.prose);
    setText(scene.prose);
    setGeneration((g) => g + 1);
  };

  return (
    <div className="scene-editing">
      {notice && restored && (
        <div className="draft-notice" role="status" data-testid="draft-notice">
          <span>
            Unsaved draft restored.
            {restored.base !== scene.prose && " The scene has changed since this draft was taken."}
          </span>
          <button type="button" className="btn btn-quiet btn-small" data-testid="discard-draft" onClick={discardDraft}>
            Discard draft
          </button>
        </div>
      )}
      <ProseEditor
        key={generation}
        initial={initial}
        lang={lang}
        label={`Prose of scene ${scene.tick}`}
        onChange={change}
        onSave={() => void save()}
        onCancel={cancel}
        onCursor={setCursor}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {confirming && (
        <p className="draft-notice" role="alert" data-testid="confirm-cancel">
          Discard your changes to this scene?
          <button type="button" className="btn btn-quiet btn-small" data-testid="confirm-discard" onClick={cancel}>
            Discard changes
          </button>
          <button type="button" className="btn btn-quiet btn-small" onClick={() => setConfirming(false)}>
            Keep editing
          </button>
        </p>
      )}
      <div className="form-actions">
        <span className="muted small" data-testid="editor-words">
          {plural(wordCount(text), "word")}
        </span>
        {onSplit && (
          <button
            type="button"
            className="btn btn-quiet"
            data-testid="split-here"
            disabled={saving || !canSplit}
            onClick={() => void split()}
            title={canSplit ? "Split the scene at the cursor: what follows it becomes the next scene" : "Put the cursor inside the text to split the scene there"}
          >
            Split here
          </button>
        )}
        <button type="button" className="btn btn-quiet" data-testid="cancel-edit" onClick={cancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" data-testid="save-scene" disabled={saving} onClick={() => void save()} title="Save (Ctrl+S)">
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </div>
  );
}

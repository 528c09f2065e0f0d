// Replace a name across the manuscript: the header's "Replace name…" button and its dialog.
// Typing shows how many places in how many scenes would change (a preview that changes
// nothing); when the old name belongs to a character or place, the writer may keep it as that
// record's alias so the story memory still recognises it. Apply is one recorded change.
import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { ReplacePreview_Serialize as ReplacePreview } from "../../bindings";
import { FormDialog } from "../../components/FormDialog";
import { Icon } from "../../components/Icon";
import { call, errorText } from "../../lib/api";
import { plural } from "../../lib/format";
import { useToast } from "../../lib/toast";

/** The header's button; the dialog it opens. */
export function ReplaceNameButton({ disabled }: { disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-quiet"
        data-testid="replace-name"
        disabled={disabled}
        onClick={() => setOpen(true)}
        title="Replace a name everywhere in the manuscript"
      >
        <Icon name="edit" /> Replace name…
      </button>
      {open && <ReplaceNameDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** What the preview says, in a sentence. */
function previewText(p: ReplacePreview): string {
  const { occurrences, scenes } = p.report;
  if (occurrences === 0) return `“${p.report.old}” does not appear in the manuscript as a whole word.`;
  return `${plural(occurrences, "place")} in ${plural(scenes.length, "scene")} will change.`;
}

export function ReplaceNameDialog({ onClose }: { onClose: () => void }) {
  const notify = useToast();
  const [old, setOld] = useState("");
  const [next, setNext] = useState("");
  const [alias, setAlias] = useState(true);
  // The latest preview and the names it answers; shown only while they are still the typed ones.
  const [answer, setAnswer] = useState<{ key: string; preview: ReplacePreview } | null>(null);
  const key = `${old}\u0000${next}`;
  const preview = answer?.key === key ? answer.preview : null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The preview follows the two names, the latest answer winning.
  useEffect(() => {
    if (!old.trim() || !next.trim() || old.trim() === next.trim()) return;
    let current = true;
    const timer = setTimeout(() => {
      call(commands.previewReplaceName(old, next))
        .then((p) => current && setAnswer({ key: `${old}\u0000${next}`, preview: p }))
        .catch((e) => current && setError(errorText(e)));
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [old, next]);

  const canApply = preview !== null && (preview.report.occurrences > 0 || (alias && preview.bearer !== null));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canApply || busy) return;
    setBusy(true);
    setError(null);
    try {
      const done = await call(commands.replaceName(old, next, alias && preview.bearer !== null));
      notify(
        `Replaced “${done.old}” with “${done.new}” in ${plural(done.scenes.length, "scene")}` +
          (done.renamed_record ? `; “${done.old}” is kept as an alias.` : "."),
      );
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <FormDialog name="replace-name" title={"Replace a name"} busy={busy} onClose={onClose} onSubmit={(e) => void submit(e)}>
      <p className="muted small">Whole words only, case as typed: replacing “Bram” leaves “Brambles” alone.</p>
      <div className="field">
        <label htmlFor="replace-old">Name in the manuscript</label>
        <input id="replace-old" data-testid="replace-old" value={old} disabled={busy} onChange={(e) => { setOld(e.target.value); setError(null); }} autoComplete="off" />
      </div>
      <div className="field">
        <label htmlFor="replace-new">Replace with</label>
        <input id="replace-new" data-testid="replace-new" value={next} disabled={busy} onChange={(e) => { setNext(e.target.value); setError(null); }} autoComplete="off" />
      </div>
      <p className="small" data-testid="replace-preview" aria-live="polite">
        {preview ? previewText(preview) : "\u00a0"}
      </p>
      {preview?.bearer && (
        <label className="check">
          <input type="checkbox" data-testid="replace-alias" checked={alias} disabled={busy} onChange={(e) => setAlias(e.target.checked)} />
          Add the old name as an alias of {preview.bearer}
        </label>
      )}
      {error && (
        <p className="notice notice-error" role="alert" data-testid="replace-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" data-testid="replace-apply" disabled={!canApply || busy}>
          {busy ? "Replacing…" : "Apply"}
        </button>
      </div>
    </FormDialog>
  );
}

// Library → Import: a new novel continued from an existing manuscript (.md, .txt, .docx). The
// shell's own file dialog picks the manuscript first; the preview shows how it splits (parts,
// chapters, scenes, word counts, first words) and the writer adjusts it (a heading that should
// not start a chapter, a title, a part, what to leave out) with the premise, protagonist and
// place the text suggests already filled in. Nothing reaches a model before Import: then each
// scene is read into the story memory with a progress bar and Stop; a stopped import resumes
// from the first scene not yet in.
import { Channel } from "@tauri-apps/api/core";
import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { ImportEvent, ImportOutcome_Serialize as ImportOutcome, ImportPreview_Serialize as ImportPreview, ImportProgress, ShapedChapter } from "../../bindings";
import { Field } from "../../components/Field";
import { Icon } from "../../components/Icon";
import { appError, call, errorText } from "../../lib/api";
import { plural } from "../../lib/format";
import { EMPTY_FORM, rememberParent, rememberedParent, serverErrors, toForm, validate } from "../../lib/newNovel";
import type { FormErrors, FormValues } from "../../lib/newNovel";
import type { Overview } from "../../lib/types";
import { ImportSplit } from "./ImportSplit";
import { ParentFolderField } from "./ParentFolderField";
import "../../styles/import.css";

interface Props {
  /** The open novel's unfinished import, to resume instead of starting one. */
  resume: ImportProgress | null;
  /** The novel (new or resumed) is open; `done`: every scene is in. */
  onImported: (overview: Overview, done: boolean) => void;
  onCancel: () => void;
  /** An import begins: the novel it opens must not take the writer away from its progress. */
  onStarted: () => void;
}

type Seed = "title" | "premise" | "protagonist_name" | "location_name" | "goal";

interface Running {
  source: string;
  done: number;
  total: number;
  stopping: boolean;
}

export function ImportPanel({ resume, onImported, onCancel, onStarted }: Props) {
  const [values, setValues] = useState<FormValues>(() => ({ ...EMPTY_FORM, parent_dir: rememberedParent() }));
  const [errors, setErrors] = useState<FormErrors>({});
  const [running, setRunning] = useState<Running | null>(null);
  const [stopped, setStopped] = useState<{ message: string; progress: ImportProgress } | null>(
    resume ? { message: `The import of ${resume.source} stopped after ${resume.done} of ${resume.total} scenes.`, progress: resume } : null,
  );
  const formRef = useRef<HTMLFormElement>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [shape, setShape] = useState<ShapedChapter[]>([]);
  const [choosing, setChoosing] = useState(false);

  /** The shell's file dialog, then the split and the seeds the text suggests. */
  const choose = async () => {
    setChoosing(true);
    setErrors({});
    try {
      const found = await call(commands.previewImport());
      if (!found) return;
      setPreview(found);
      setShape(found.chapters.map((c) => ({ title: c.title, part: c.part, starts_chapter: true, included: !c.front_matter })));
      // The seeds come from the text; what the writer already typed stays.
      setValues((v) => ({
        ...v,
        title: v.title || found.title || "",
        premise: v.premise || found.proposals.premise,
        protagonist_name: v.protagonist_name || found.proposals.protagonist,
        location_name: v.location_name || found.proposals.place,
      }));
    } catch (e) {
      setErrors({ form: errorText(e) });
    } finally {
      setChoosing(false);
    }
  };

  const set = (name: keyof FormValues, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] || e.form ? { ...e, [name]: undefined, form: undefined } : e));
  };

  /** Runs `start` with a fresh progress channel; shows the outcome. */
  const drive = async (start: (channel: Channel<ImportEvent>) => Promise<ImportOutcome | null>) => {
    const channel = new Channel<ImportEvent>();
    channel.onmessage = (event) =>
      setRunning((r) => (event.type === "started" ? { source: event.source, done: event.done, total: event.total, stopping: false } : r && { ...r, done: event.done, total: event.total }));
    setErrors({});
    setStopped(null);
    onStarted();
    try {
      const outcome = await start(channel);
      if (!outcome) return;
      if (outcome.stopped) {
        setStopped({ message: outcome.stopped, progress: outcome.progress });
        onImported(outcome.overview, false);
      } else {
        onImported(outcome.overview, true);
      }
    } catch (e) {
      const error = appError(e);
      const next: FormErrors = error.kind === "invalid_form" ? { ...serverErrors(error.fields), form: error.message } : { form: errorText(e) };
      setErrors(next);
    } finally {
      setRunning(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The title may stay blank: the manuscript's own (or its file name) is used.
    const found = validate({ ...values, title: values.title.trim() || "from the manuscript" });
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#field-${first}`)?.focus();
      return;
    }
    rememberParent(values.parent_dir.trim());
    await drive((channel) => call(commands.importManuscript(values.parent_dir.trim(), toForm(values), { chapters: shape }, channel)));
  };

  const resumeImport = () => drive((channel) => call(commands.resumeImport(channel as never)));

  const stop = async () => {
    setRunning((r) => r && { ...r, stopping: true });
    try {
      await call(commands.stopRun(true));
    } catch (e) {
      setErrors({ form: errorText(e) });
    }
  };


  const text = (name: Seed, label: string, opts: { required?: boolean; hint?: string; placeholder?: string } = {}) => (
    <Field name={name} label={label} error={errors[name]} hint={opts.hint} required={opts.required}>
      {(props) => <input {...props} type="text" value={values[name]} placeholder={opts.placeholder} disabled={running !== null} onChange={(e) => set(name, e.target.value)} />}
    </Field>
  );

  if (running) {
    const pct = running.total > 0 ? Math.round((running.done / running.total) * 100) : 0;
    return (
      <section className="card import-panel" aria-labelledby="import-title" data-testid="import-running">
        <h2 id="import-title">Importing {running.source}</h2>
        <p className="muted">Each scene is read into the story memory: its characters, places, threads and summary.</p>
        <progress className="import-bar" data-testid="import-progress" value={running.done} max={Math.max(1, running.total)} aria-label={`${pct}% imported`} />
        <p data-testid="import-count" aria-live="polite">
          {running.done} of {plural(running.total, "scene")} in
        </p>
        <div className="form-actions">
          <button type="button" className="btn btn-quiet" data-testid="import-stop" disabled={running.stopping} onClick={() => void stop()}>
            <Icon name="stop" /> {running.stopping ? "Stopping…" : "Stop"}
          </button>
        </div>
      </section>
    );
  }

  if (stopped) {
    return (
      <section className="card import-panel" aria-labelledby="import-title" data-testid="import-stopped">
        <h2 id="import-title">Import not finished</h2>
        <p data-testid="import-stopped-message">{stopped.message}</p>
        <progress className="import-bar" value={stopped.progress.done} max={Math.max(1, stopped.progress.total)} aria-label={`${stopped.progress.done} of ${stopped.progress.total} scenes in`} />
        {errors.form && (
          <p className="notice notice-error" role="alert" data-testid="import-error">
            {errors.form}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn btn-quiet" onClick={onCancel}>
            Later
          </button>
          <button type="button" className="btn btn-primary" data-testid="import-resume" onClick={() => void resumeImport()}>
            Resume import
          </button>
        </div>
      </section>
    );
  }

  if (!preview) {
    return (
      <section className="card new-novel import-panel" aria-labelledby="import-title" data-testid="import-form">
        <div className="card-head">
          <h2 id="import-title">Import a manuscript</h2>
          <p className="muted">
            Continue a book you already have (Markdown, plain text or Word). Choose the file first: you will see how it splits into parts,
            chapters and scenes, and what it seems to be about, before anything is read by the agent.
          </p>
        </div>
        {errors.form && (
          <p className="notice notice-error" role="alert" data-testid="import-error">
            {errors.form}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn btn-quiet" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" data-testid="import-choose" disabled={choosing} onClick={() => void choose()}>
            {choosing ? "Reading the manuscript…" : "Choose manuscript…"}
          </button>
        </div>
      </section>
    );
  }

  return (
    <form className="card new-novel import-panel" ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-labelledby="import-title" data-testid="import-form">
      <div className="card-head">
        <h2 id="import-title">Import {preview.source}</h2>
        <p className="muted">
          Check how the book splits, then Import: the agent reads each scene once to learn its people, places and open threads, then writes
          on from there. Nothing is sent to it before you press Import.
        </p>
      </div>
      <ImportSplit preview={preview} shape={shape} onChange={setShape} />
      <fieldset>
        <legend>To go on with</legend>
        <p className="muted small">Suggested from the text; change anything that is not right.</p>
        {text("title", "Title", { hint: "Leave blank to take the manuscript’s own title." })}
        {text("premise", "Premise", { required: true, hint: "What the story is about, in a sentence or two." })}
        <div className="field-row">
          {text("protagonist_name", "Protagonist", { required: true, placeholder: "Who the story follows" })}
          {text("location_name", "Where it starts", { required: true, placeholder: "Where the first scene happens" })}
        </div>
        {text("goal", "Goal", { required: true, hint: "What the protagonist wants: the direction the story pulls in." })}
      </fieldset>
      <fieldset>
        <legend>Where to keep it</legend>
        <ParentFolderField value={values.parent_dir} error={errors.parent_dir} onChange={(dir) => set("parent_dir", dir)} />
      </fieldset>
      {errors.form && (
        <p className="notice notice-error" role="alert" data-testid="import-error">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-quiet" data-testid="import-choose-again" onClick={() => void choose()}>
          Choose another file…
        </button>
        <button type="submit" className="btn btn-primary" data-testid="import-start">
          Import
        </button>
      </div>
    </form>
  );
}

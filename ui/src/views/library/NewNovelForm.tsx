// The New novel form: the seed of a book (foundation, voice, protagonist, starting place,
// goal), the folder to keep it in, and the model that will write it; checks required fields
// before sending, tests a model no connection test has reached yet (the first scene should not
// be where a missing server is found), and shows the server's field errors beside their fields.
import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import { Field } from "../../components/Field";
import { appError, call, errorText } from "../../lib/api";
import {
  EMPTY_FORM,
  clearFormDraft,
  formDraft,
  keepFormDraft,
  rememberParent,
  rememberedParent,
  serverErrors,
  toForm,
  validate,
} from "../../lib/newNovel";
import type { FormErrors, FormValues } from "../../lib/newNovel";
import type { Overview } from "../../lib/types";
import { reached, writingProfile, WritingWith } from "./WritingWith";
import type { Check } from "./WritingWith";
import { ParentFolderField } from "./ParentFolderField";

interface Props {
  onCreated: (overview: Overview) => void;
  onCancel: () => void;
  onSettings: () => void;
}

type TextName = Exclude<keyof FormValues, "pov" | "tense">;

export function NewNovelForm({ onCreated, onCancel, onSettings }: Props) {
  // What was typed before a visit to Settings comes back with the form.
  const [values, setValues] = useState<FormValues>(() => formDraft() ?? { ...EMPTY_FORM, parent_dir: rememberedParent() });
  useEffect(() => keepFormDraft(values), [values]);
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);
  const [check, setCheck] = useState<Check>({ state: "unknown" });
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends keyof FormValues>(name: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] || e.form ? { ...e, [name]: undefined, form: undefined } : e));
  };

  const focusFirstError = (errs: FormErrors) => {
    const first = Object.keys(errs).find((k) => k !== "form" && errs[k as keyof FormErrors]);
    if (first) formRef.current?.querySelector<HTMLElement>(`#field-${first}`)?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError(found);
      return;
    }
    setSaving(true);
    try {
      if (check.state !== "failed" && !(await modelAnswers())) return;
      const overview = await call(commands.createNovel(values.parent_dir.trim(), toForm(values)));
      rememberParent(values.parent_dir.trim());
      clearFormDraft();
      onCreated(overview);
    } catch (err) {
      const error = appError(err);
      let next: FormErrors;
      if (error.kind === "invalid_form") next = { ...serverErrors(error.fields), form: error.message };
      else if (error.kind === "invalid_input" && /folder/i.test(error.message)) next = { parent_dir: error.message };
      else next = { form: error.message };
      setErrors(next);
      focusFirstError(next);
    } finally {
      setSaving(false);
    }
  };

  /** Tests the writing profile unless a test already reached it; says why when it fails.
   *  After a failure the next Create goes ahead without a model ("Create anyway"). */
  const modelAnswers = async (): Promise<boolean> => {
    const row = writingProfile(await call(commands.listProviders()).catch(() => undefined));
    if (!row || reached(row) || check.state === "ok") return true;
    setCheck({ state: "testing" });
    try {
      const report = await call(commands.testProvider(row.profile.name));
      setCheck({ state: "ok", detail: `${report.model} answered in ${report.latency_ms} ms` });
      return true;
    } catch (e) {
      setCheck({ state: "failed", message: errorText(e) });
      setErrors({
        form: `The model did not answer, so the first scene could not be written. Fix the provider in Settings, or create the novel anyway and connect a model later.`,
      });
      return false;
    }
  };


  const text = (name: TextName, label: string, opts: { required?: boolean; hint?: string; long?: boolean; placeholder?: string } = {}) => (
    <Field name={name} label={label} error={errors[name]} hint={opts.hint} required={opts.required}>
      {(props) =>
        opts.long ? (
          <textarea
            {...props}
            rows={3}
            value={values[name]}
            placeholder={opts.placeholder}
            onChange={(e) => set(name, e.target.value)}
          />
        ) : (
          <input
            {...props}
            type="text"
            value={values[name]}
            placeholder={opts.placeholder}
            onChange={(e) => set(name, e.target.value)}
          />
        )
      }
    </Field>
  );

  return (
    <form className="card new-novel" ref={formRef} onSubmit={submit} noValidate aria-labelledby="new-novel-title">
      <div className="card-head">
        <h2 id="new-novel-title">A new novel</h2>
        <p className="muted">A few seeds are enough: the agent grows the rest scene by scene.</p>
      </div>

      <fieldset>
        <legend>The book</legend>
        {text("title", "Title", { required: true, placeholder: "The book's working title" })}
        {text("author", "Author", { placeholder: "Your name, as the title page prints it", hint: "On the exported manuscript's title page and page headers; you can leave it for later." })}
        <div className="field-row">
          {text("genre", "Genre", { placeholder: "e.g. thriller, literary, fantasy" })}
          {text("tone", "Tone", { placeholder: "The mood, in a few words" })}
        </div>
        {text("premise", "Premise", { required: true, long: true, hint: "What the story is about, in a sentence or two." })}
        {text("setting", "Setting", { long: true, placeholder: "Where and when the story happens" })}
        {text("style", "Style", { placeholder: "How the prose should read, in a few words" })}
      </fieldset>

      <fieldset>
        <legend>Voice</legend>
        <div className="field-row three">
          <Field name="pov" label="Point of view">
            {(props) => (
              <select {...props} value={values.pov} onChange={(e) => set("pov", e.target.value === "first" ? "first" : "deep_third")}>
                <option value="deep_third">Deep third person</option>
                <option value="first">First person</option>
              </select>
            )}
          </Field>
          <Field name="tense" label="Tense">
            {(props) => (
              <select {...props} value={values.tense} onChange={(e) => set("tense", e.target.value === "present" ? "present" : "past")}>
                <option value="past">Past</option>
                <option value="present">Present</option>
              </select>
            )}
          </Field>
          {text("language", "Language", { required: true })}
        </div>
      </fieldset>

      <fieldset>
        <legend>Protagonist</legend>
        <div className="field-row">
          {text("protagonist_name", "Name", { required: true, placeholder: "Who the story follows" })}
          {text("protagonist_role", "Role", { placeholder: "What they do, or who they are" })}
        </div>
        {text("protagonist_description", "Description", { long: true })}
      </fieldset>

      <fieldset>
        <legend>Where it starts</legend>
        {text("location_name", "Place", { required: true, placeholder: "Where the first scene happens" })}
        {text("location_description", "Description", { long: true })}
        {text("goal", "Goal", { required: true, long: true, hint: "What the protagonist wants: the direction the story pulls in." })}
      </fieldset>

      <fieldset>
        <legend>Where to keep it</legend>
        <ParentFolderField value={values.parent_dir} error={errors.parent_dir} onChange={(dir) => set("parent_dir", dir)} />
      </fieldset>

      <fieldset>
        <legend>Who writes it</legend>
        <WritingWith check={check} onCheck={setCheck} onSettings={onSettings} />
      </fieldset>

      {errors.form && (
        <p className="notice notice-error" role="alert" data-testid="error-form">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-quiet"
          onClick={() => {
            clearFormDraft();
            onCancel();
          }}
        >
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" data-testid="create-novel" disabled={saving}>
          {saving ? (check.state === "testing" ? "Testing the model…" : "Creating…") : check.state === "failed" ? "Create anyway" : "Create novel"}
        </button>
      </div>
    </form>
  );
}

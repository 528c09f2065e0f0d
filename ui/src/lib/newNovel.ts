// The New novel form's model: empty values, the client-side checks (the same required fields
// as the Rust side, which checks again), the server's `invalid_form` field errors, and what
// was typed kept for the session (sessionStorage) so a visit to Settings loses none of it.
import type { FieldError, NewNovelForm } from "../bindings";

export type FormValues = NewNovelForm & { parent_dir: string };
export type FormErrors = Partial<Record<keyof FormValues | "form", string>>;

export const EMPTY_FORM: FormValues = {
  title: "",
  author: "",
  genre: "",
  premise: "",
  setting: "",
  tone: "",
  style: "",
  pov: "deep_third",
  tense: "past",
  language: "English",
  protagonist_name: "",
  protagonist_role: "",
  protagonist_description: "",
  location_name: "",
  location_description: "",
  goal: "",
  parent_dir: "",
};

const REQUIRED: [keyof FormValues, string][] = [
  ["title", "Give the novel a title."],
  ["premise", "Say in a sentence or two what the story is about."],
  ["language", "Name the language to write in, e.g. English."],
  ["protagonist_name", "Name the protagonist."],
  ["location_name", "Name the place where the story starts."],
  ["goal", "Say what the protagonist wants to achieve."],
  ["parent_dir", "Choose the folder to keep the novel in."],
];

export function validate(values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const [field, message] of REQUIRED) {
    if (String(values[field]).trim() === "") errors[field] = message;
  }
  return errors;
}

/** The server's per-field problems; any it names that the form does not have go to "form". */
export function serverErrors(fields: FieldError[]): FormErrors {
  const errors: FormErrors = {};
  for (const f of fields) {
    const key = (f.field in EMPTY_FORM ? f.field : "form") as keyof FormErrors;
    errors[key] = errors[key] ? `${errors[key]} ${f.message}` : f.message;
  }
  return errors;
}

export function toForm(values: FormValues): NewNovelForm {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { parent_dir, ...form } = values;
  return form;
}

const PARENT_KEY = "novel-agent.parent-dir";

export function rememberedParent(): string {
  try {
    return localStorage.getItem(PARENT_KEY) ?? "";
  } catch {
    return "";
  }
}

export function rememberParent(dir: string) {
  try {
    localStorage.setItem(PARENT_KEY, dir);
  } catch {
    // Not remembered this time; nothing else depends on it.
  }
}

const DRAFT_KEY = "novel-agent.new-novel-draft";

/** What was typed into the form this session and not yet created or cancelled. */
export function formDraft(): FormValues | null {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? "null");
    if (!raw || typeof raw !== "object") return null;
    // Only the form's own fields, as strings: the stored copy is read, not trusted.
    const draft = { ...EMPTY_FORM };
    for (const key of Object.keys(EMPTY_FORM) as (keyof FormValues)[]) {
      const value = (raw as Record<string, unknown>)[key];
      if (typeof value === "string") (draft as Record<string, string>)[key] = value;
    }
    return draft;
  } catch {
    return null;
  }
}

/** Keeps `values` for the session; a form with nothing typed (beyond the defaults) is no draft. */
export function keepFormDraft(values: FormValues) {
  try {
    const typed = (Object.keys(EMPTY_FORM) as (keyof FormValues)[]).some(
      (k) => k !== "parent_dir" && values[k] !== EMPTY_FORM[k],
    );
    if (typed) sessionStorage.setItem(DRAFT_KEY, JSON.stringify(values));
    else sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Not kept this time; the form still works.
  }
}

export function clearFormDraft() {
  try {
    sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}

// The provider profile form's model: a draft from an existing profile, a server Find local
// servers found, or a blank one; the profile sent to `saveProvider` (keys never: only where
// the key lives) with its generation settings; and Rust's answer about it field by field. The
// kinds, their defaults and the range checks are Rust's (`PROVIDER_KINDS` in the bindings;
// `saveProvider` answers `invalid_form`); the form only checks that a number is a number.
import { PROVIDER_KINDS } from "../bindings";
import type {
  FieldError,
  FoundServer_Serialize,
  KeySource,
  ModelEntry_Serialize,
  ProbeReport_Serialize,
  ProviderKind,
  ProviderProfile_Deserialize,
  ProviderProfile_Serialize,
  StructuredOutput,
} from "../bindings";
import type { ProfileRow } from "./types";

export type KindInfo = (typeof PROVIDER_KINDS)[number];

export function kindInfo(kind: ProviderKind): KindInfo {
  return PROVIDER_KINDS.find((k) => k.kind === kind) ?? PROVIDER_KINDS[0];
}

export interface ProviderDraft {
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  model: string;
  keySource: KeySource;
  keyEnv: string;
  /** Typed by the writer for the keychain; sent once to `storeProviderKey`, never shown back. */
  key: string;
  /** One argument per line. */
  command: string;
  makeDefault: boolean;
  /** The generation settings, as typed; empty is "not set" (the server's default). */
  temperature: string;
  topP: string;
  maxOutputTokens: string;
  contextLength: string;
  timeoutSecs: string;
  structuredOutput: StructuredOutput;
  pricePrompt: string;
  priceCompletion: string;
  /** The profile being edited, to keep its retries, tokenizer and recorded capabilities. */
  original: ProviderProfile_Serialize | null;
}

/** How a profile may ask for JSON, as the form offers it. */
export const STRUCTURED_OUTPUT: { value: StructuredOutput; label: string }[] = [
  { value: "auto", label: "Automatic (the strongest way the server accepts)" },
  { value: "json_schema", label: "JSON schema (response_format json_schema)" },
  { value: "json_object", label: "JSON object (response_format json_object)" },
  { value: "prompt_only", label: "In the prompt only (nothing on the wire)" },
];

/** What a connection test found beyond "it answered": how JSON will be asked for, what the
 * server refused, the context window. */
export function testFindings(r: ProbeReport_Serialize): string {
  const parts = [`JSON asked as ${r.json_mode}`];
  if (r.capabilities.json_schema === false) parts.push("json_schema refused");
  if (r.capabilities.temperature === false) parts.push("temperature refused");
  parts.push(r.context_length ? `context ${r.context_length.toLocaleString("en-US")} tokens` : "context length unknown");
  return parts.join(" · ");
}

/** A profile's generation settings in one line, for its row. */
export function describeSettings(p: ProviderProfile_Serialize): string {
  const parts: string[] = [];
  if (p.temperature !== undefined && p.temperature !== null) parts.push(`temperature ${p.temperature}`);
  if (p.top_p !== undefined && p.top_p !== null) parts.push(`top p ${p.top_p}`);
  if (p.max_output_tokens) parts.push(`answers up to ${p.max_output_tokens.toLocaleString("en-US")} tokens`);
  if (p.context_length) parts.push(`context ${p.context_length.toLocaleString("en-US")} tokens`);
  if (p.structured_output && p.structured_output !== "auto") parts.push(`JSON as ${p.structured_output}`);
  if (p.prices) parts.push(`${p.prices.prompt_per_million} / ${p.prices.completion_per_million} per million tokens in / out`);
  return parts.join(" · ");
}

/** A model as the dropdown shows it: its name and, where the server says, its context. */
export function modelLabel(m: ModelEntry_Serialize): string {
  const parts = [m.context_length ? `${m.context_length.toLocaleString("en-US")} tokens` : null, m.loaded ? "loaded" : null].filter(Boolean);
  return parts.length ? `${m.id} (${parts.join(", ")})` : m.id;
}

export const BLANK_DRAFT: ProviderDraft = {
  name: "",
  kind: "openai-compatible",
  baseUrl: "",
  model: "",
  keySource: "env",
  keyEnv: "",
  key: "",
  command: "",
  makeDefault: false,
  temperature: "",
  topP: "",
  maxOutputTokens: "",
  contextLength: "",
  timeoutSecs: "300",
  structuredOutput: "auto",
  pricePrompt: "",
  priceCompletion: "",
  original: null,
};

const text = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));

function settingsOf(p: ProviderProfile_Serialize) {
  return {
    temperature: text(p.temperature),
    topP: text(p.top_p),
    maxOutputTokens: text(p.max_output_tokens),
    contextLength: text(p.context_length),
    timeoutSecs: text(p.timeout_secs),
    structuredOutput: p.structured_output ?? "auto",
    pricePrompt: text(p.prices?.prompt_per_million),
    priceCompletion: text(p.prices?.completion_per_million),
  };
}

/** A new profile for a server Find local servers found, as Rust suggested it. */
export function draftFromFound(found: FoundServer_Serialize, makeDefault: boolean): ProviderDraft {
  const p = found.suggested;
  return {
    ...BLANK_DRAFT,
    ...settingsOf(p),
    name: p.name,
    kind: p.kind,
    baseUrl: p.base_url ?? "",
    model: p.model ?? "",
    makeDefault,
  };
}

export function draftFrom(row: ProfileRow, isDefault: boolean): ProviderDraft {
  const p = row.profile;
  return {
    name: p.name,
    kind: p.kind,
    baseUrl: p.base_url ?? "",
    model: p.model ?? "",
    keySource: p.key_source ?? "env",
    keyEnv: p.api_key_env ?? "",
    key: "",
    command: (p.command ?? []).join("\n"),
    makeDefault: isDefault,
    ...settingsOf(p),
    original: p,
  };
}

/** Messages by form field; `form` holds the ones no field of the form shows. */
export type DraftErrors = Partial<
  Record<
    | "name"
    | "model"
    | "command"
    | "baseUrl"
    | "keyEnv"
    | "keySource"
    | "temperature"
    | "topP"
    | "maxOutputTokens"
    | "contextLength"
    | "timeoutSecs"
    | "prices"
    | "form",
    string
  >
>;

/** Where each profile field Rust names is shown in the form. */
const FIELDS: Record<string, keyof DraftErrors> = {
  name: "name",
  model: "model",
  command: "command",
  base_url: "baseUrl",
  api_key_env: "keyEnv",
  key_source: "keySource",
  temperature: "temperature",
  top_p: "topP",
  max_output_tokens: "maxOutputTokens",
  context_length: "contextLength",
  timeout_secs: "timeoutSecs",
  prices: "prices",
};

/** Rust's problems with the profile, each beside its field. */
export function draftErrors(fields: FieldError[]): DraftErrors {
  const errors: DraftErrors = {};
  for (const f of fields) {
    const key = Object.hasOwn(FIELDS, f.field) ? FIELDS[f.field] : "form";
    errors[key] = errors[key] ? `${errors[key]} ${f.message}` : f.message;
  }
  return errors;
}

type NumberField = "temperature" | "topP" | "maxOutputTokens" | "contextLength" | "timeoutSecs" | "pricePrompt" | "priceCompletion";

const WHOLE: NumberField[] = ["maxOutputTokens", "contextLength", "timeoutSecs"];

/** The number typed in `field`, `null` when empty, `NaN` when it is not a number. */
function numberIn(d: ProviderDraft, field: NumberField): number | null {
  const typed = d[field].trim();
  if (typed === "") return null;
  const n = Number(typed);
  return Number.isFinite(n) && (!WHOLE.includes(field) || Number.isInteger(n)) ? n : NaN;
}

/**
 * What the form can tell before asking Rust: a setting that is not a number, a price without
 * its pair, an empty timeout. Ranges are Rust's to check (`saveProvider` answers field by field).
 */
export function draftProblems(d: ProviderDraft): DraftErrors {
  const errors: DraftErrors = {};
  const bad = (f: NumberField) => Number.isNaN(numberIn(d, f));
  if (bad("temperature")) errors.temperature = "Enter a number such as 0.7, or leave it empty for the server's default.";
  if (bad("topP")) errors.topP = "Enter a number such as 0.9, or leave it empty for the server's default.";
  if (bad("maxOutputTokens")) errors.maxOutputTokens = "Enter a whole number of tokens, or leave it empty for no ceiling.";
  if (bad("contextLength")) errors.contextLength = "Enter a whole number of tokens, or leave it empty when unknown.";
  if (bad("timeoutSecs") || numberIn(d, "timeoutSecs") === null) errors.timeoutSecs = "Enter the timeout in whole seconds, e.g. 300.";
  if (bad("pricePrompt") || bad("priceCompletion")) {
    errors.prices = "Prices are amounts per million tokens, e.g. 0.15.";
  } else if ((numberIn(d, "pricePrompt") === null) !== (numberIn(d, "priceCompletion") === null)) {
    errors.prices = "Enter both prices, or neither (a local server is free).";
  }
  return errors;
}

export function toProfile(d: ProviderDraft): ProviderProfile_Deserialize {
  const o = d.original;
  const keep = o
    ? {
        max_retries: o.max_retries,
        retry_base_delay_ms: o.retry_base_delay_ms,
        ...(o.tokenizer_file ? { tokenizer_file: o.tokenizer_file } : {}),
        ...(o.capabilities ? { capabilities: o.capabilities } : {}),
      }
    : {};
  const profile: ProviderProfile_Deserialize = { ...keep, name: d.name.trim(), kind: d.kind };
  const timeout = numberIn(d, "timeoutSecs");
  if (timeout !== null) profile.timeout_secs = timeout;
  if (d.kind === "command") {
    profile.command = d.command
      .split("\n")
      .map((a) => a.trim())
      .filter((a) => a !== "");
    if (d.model.trim()) profile.model = d.model.trim();
    return profile;
  }
  profile.model = d.model.trim();
  if (d.baseUrl.trim()) profile.base_url = d.baseUrl.trim();
  if (d.keySource === "keychain") {
    profile.key_source = "keychain";
  } else {
    profile.key_source = "env";
    if (d.keyEnv.trim()) profile.api_key_env = d.keyEnv.trim();
  }
  const settings: [NumberField, "temperature" | "top_p" | "max_output_tokens" | "context_length"][] = [
    ["temperature", "temperature"],
    ["topP", "top_p"],
    ["maxOutputTokens", "max_output_tokens"],
    ["contextLength", "context_length"],
  ];
  for (const [field, key] of settings) {
    const n = numberIn(d, field);
    if (n !== null) profile[key] = n;
  }
  if (d.structuredOutput !== "auto") profile.structured_output = d.structuredOutput;
  const prompt = numberIn(d, "pricePrompt");
  const completion = numberIn(d, "priceCompletion");
  if (prompt !== null && completion !== null) profile.prices = { prompt_per_million: prompt, completion_per_million: completion };
  return profile;
}

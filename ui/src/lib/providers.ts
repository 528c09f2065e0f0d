// The provider profile form's model: a draft from an existing profile (or a blank one), the
// profile sent to `saveProvider` (keys never: only where the key lives), and Rust's answer
// about it field by field. The kinds, their defaults and the checks are Rust's
// (`PROVIDER_KINDS` in the bindings; `saveProvider` answers `invalid_form`).
import { PROVIDER_KINDS } from "../bindings";
import type { FieldError, KeySource, ProviderKind, ProviderProfile_Deserialize, ProviderProfile_Serialize } from "../bindings";
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
  /** The profile being edited, to keep its timeouts and retries. */
  original: ProviderProfile_Serialize | null;
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
  original: null,
};

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
    original: p,
  };
}

/** Messages by form field; `form` holds the ones no field of the form shows. */
export type DraftErrors = Partial<Record<"name" | "model" | "command" | "baseUrl" | "keyEnv" | "keySource" | "form", string>>;

/** Where each profile field Rust names is shown in the form. */
const FIELDS: Record<string, keyof DraftErrors> = {
  name: "name",
  model: "model",
  command: "command",
  base_url: "baseUrl",
  api_key_env: "keyEnv",
  key_source: "keySource",
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

export function toProfile(d: ProviderDraft): ProviderProfile_Deserialize {
  const keep = d.original
    ? {
        timeout_secs: d.original.timeout_secs,
        max_retries: d.original.max_retries,
        retry_base_delay_ms: d.original.retry_base_delay_ms,
      }
    : {};
  const profile: ProviderProfile_Deserialize = { ...keep, name: d.name.trim(), kind: d.kind };
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
  return profile;
}

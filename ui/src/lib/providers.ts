// The provider profile form's model: a draft from an existing profile (or a blank one),
// checks, and the profile sent to `saveProvider` (keys never: only where the key lives).
import type { KeySource, ProviderKind, ProviderProfile_Deserialize, ProviderProfile_Serialize } from "../bindings";
import type { ProfileRow } from "./types";

export const PROVIDER_KINDS: { kind: ProviderKind; label: string; baseUrl: string; keyEnv: string }[] = [
  { kind: "openai-compatible", label: "OpenAI-compatible", baseUrl: "https://api.openai.com/v1", keyEnv: "OPENAI_API_KEY" },
  { kind: "ollama", label: "Ollama", baseUrl: "http://localhost:11434/v1", keyEnv: "" },
  { kind: "anthropic", label: "Anthropic", baseUrl: "https://api.anthropic.com", keyEnv: "ANTHROPIC_API_KEY" },
  { kind: "gemini", label: "Google Gemini", baseUrl: "https://generativelanguage.googleapis.com", keyEnv: "GEMINI_API_KEY" },
  { kind: "command", label: "Command-line agent", baseUrl: "", keyEnv: "" },
];

export function kindInfo(kind: ProviderKind) {
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

export type DraftErrors = Partial<Record<"name" | "model" | "command" | "baseUrl", string>>;

export function validateDraft(d: ProviderDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (d.name.trim() === "") errors.name = "Give the profile a name.";
  if (d.kind === "command") {
    if (d.command.trim() === "") errors.command = "Enter the program and its arguments, one per line.";
  } else if (d.model.trim() === "") {
    errors.model = "Enter the model name, e.g. gpt-4o-mini or llama3.1.";
  }
  if (d.baseUrl.trim() !== "" && !/^https?:\/\//i.test(d.baseUrl.trim())) {
    errors.baseUrl = "The address starts with http:// or https://.";
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

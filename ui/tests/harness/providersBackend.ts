// The mocked discovery and per-role commands for UI tests: the servers Find local servers
// finds (an Ollama to add, a llama.cpp already saved as "local"), model lists by server
// address as Rust answers them (a list with context lengths, an empty list with its note, a
// server that cannot be reached), the open novel's profile per role (refusing a name no saved
// profile has, as Rust does) and its spending limits.
import type {
  AppError,
  BudgetConfig_Deserialize,
  BudgetConfig_Serialize,
  FoundServer_Serialize,
  ModelList_Serialize,
  ModelsOf_Deserialize,
  ProvidersView_Serialize,
  RoleProfiles_Deserialize,
  RoleProfiles_Serialize,
} from "../../src/bindings";

export interface ProvidersScenario {
  /** What Find local servers answers (default: `FOUND`). */
  detected?: FoundServer_Serialize[];
  /** Model lists by server address, replacing the defaults of `MODEL_LISTS`. */
  modelLists?: Record<string, ModelList_Serialize | AppError>;
  /** The open novel's profile per role (default: all default). */
  roles?: RoleProfiles_Serialize;
  /** The open novel's spending limits (default: none). */
  budget?: BudgetConfig_Serialize;
}

interface Ctx {
  need: () => void;
  providers: () => ProvidersView_Serialize;
  changed: (reason: "settings_saved") => Promise<void>;
}

const profile = (name: string, kind: "ollama" | "openai-compatible", base_url: string, model: string, context_length?: number) => ({
  name,
  kind,
  base_url,
  model,
  timeout_secs: 300,
  max_retries: 3,
  retry_base_delay_ms: 1000,
  ...(context_length ? { context_length } : {}),
});

export const FOUND: FoundServer_Serialize[] = [
  {
    server: {
      server: "ollama",
      label: "Ollama",
      port: 11434,
      base_url: "http://127.0.0.1:11434/v1",
      models: [
        { id: "llama3.1:8b", context_length: 8192, loaded: null },
        { id: "qwen2.5:14b", context_length: 32768, loaded: null },
      ],
    },
    suggested: profile("ollama", "ollama", "http://127.0.0.1:11434/v1", "llama3.1:8b", 8192),
    saved_as: null,
  },
  {
    server: {
      server: "llama_cpp",
      label: "llama.cpp",
      port: 8080,
      base_url: "http://127.0.0.1:8080/v1",
      models: [{ id: "qwen2.5-14b", context_length: 16384, loaded: null }],
    },
    suggested: profile("llama-cpp", "openai-compatible", "http://127.0.0.1:8080/v1", "qwen2.5-14b", 16384),
    saved_as: "local",
  },
];

export const MODEL_LISTS: Record<string, ModelList_Serialize> = {
  "http://127.0.0.1:11434/v1": {
    models: [
      { id: "llama3.1:8b", context_length: 8192, loaded: null },
      { id: "qwen2.5:14b", context_length: 32768, loaded: null },
    ],
    source: "http://127.0.0.1:11434/api/tags",
    note: null,
  },
  "http://127.0.0.1:8080/v1": {
    models: [
      { id: "qwen2.5-14b", context_length: 16384, loaded: null },
      { id: "mistral-7b", context_length: null, loaded: null },
    ],
    source: "http://127.0.0.1:8080/v1/models",
    note: null,
  },
  "http://127.0.0.1:9000/v1": {
    models: [],
    source: "http://127.0.0.1:9000/v1/models",
    note: "This server does not list its models (no /v1/models); type the model's name.",
  },
};

const DEFAULT_URLS: Record<string, string> = { ollama: "http://localhost:11434/v1", "openai-compatible": "https://api.openai.com/v1" };

export function providersHandlers(s: ProvidersScenario, { need, providers, changed }: Ctx): Record<string, (a: Record<string, unknown>) => unknown> {
  let roles: RoleProfiles_Serialize = s.roles ?? {};
  let budget: BudgetConfig_Serialize = s.budget ?? {};
  const lists = { ...MODEL_LISTS, ...(s.modelLists ?? {}) };
  return {
    detect_providers: async () => {
      await new Promise((r) => setTimeout(r, 20));
      return s.detected ?? FOUND;
    },
    provider_models: (a) => {
      const of = a.of as ModelsOf_Deserialize;
      const p = of.from === "saved" ? providers().profiles.find((r) => r.profile.name === of.name)?.profile : of.profile;
      if (!p) throw { kind: "provider", message: `no provider profile named \`${of.from === "saved" ? of.name : ""}\`` } satisfies AppError;
      const url = p.base_url ?? DEFAULT_URLS[p.kind] ?? "";
      const answer = Object.hasOwn(lists, url) ? lists[url] : null;
      if (answer === null) {
        throw {
          kind: "provider",
          // As novel-llm words it: the profile, the URL, and every layer of the failure.
          message: `profile \`${p.name}\` of /home/writer/.config/novel-agent/providers.toml: cannot list the models at ${url}/models: no answer (connection failed: client error (Connect): tcp connect error: Connection refused (os error 111)); is the server running and is \`base_url\` right?`,
        } satisfies AppError;
      }
      if ("kind" in answer) throw answer;
      return answer;
    },
    novel_budget: () => {
      need();
      return budget;
    },
    save_budget: (a) => {
      need();
      const b = a.budget as BudgetConfig_Deserialize;
      for (const [scope, limits] of [["run", b.run], ["novel", b.novel]] as const) {
        if (limits?.cost !== undefined && limits.cost !== null && limits.cost < 0) {
          throw { kind: "invalid_input", message: `These settings cannot be saved: [budget.${scope}] cost must be a number of at least 0, not ${limits.cost}.` } satisfies AppError;
        }
      }
      const kept = (l: BudgetConfig_Deserialize["run"]) => Object.fromEntries(Object.entries(l ?? {}).filter(([, v]) => v !== null && v !== undefined));
      budget = { run: kept(b.run), novel: kept(b.novel) };
      void changed("settings_saved");
      return budget;
    },
    role_profiles: () => {
      need();
      return roles;
    },
    save_role_profiles: (a) => {
      need();
      const models = a.models as RoleProfiles_Deserialize;
      const names = providers().profiles.map((r) => r.profile.name);
      for (const role of ["planner", "writer", "extractor", "reviser", "critic"] as const) {
        const name = models[role];
        if (name && !names.includes(name)) {
          throw {
            kind: "invalid_input",
            message: `There is no provider profile called "${name}" for the ${role}; add it under AI providers or choose another.`,
          } satisfies AppError;
        }
      }
      roles = Object.fromEntries(Object.entries(models).filter(([, v]) => v)) as RoleProfiles_Serialize;
      void changed("settings_saved");
      return roles;
    },
  };
}

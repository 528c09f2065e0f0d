// Add or edit a provider profile: kind, address, model (a dropdown filled from the server,
// or typed), where the API key lives (an environment variable's NAME, or the OS keychain
// through a password field never shown back), and the generation settings. Rust checks the
// profile and answers field by field; a new program to run is confirmed in a native dialog the
// shell opens, and a "no" there saves nothing.
import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { PROVIDER_KINDS, commands } from "../../bindings";
import type { KeySource, ModelEntry_Serialize, ModelList_Serialize, ProviderKind } from "../../bindings";
import { appError, call, errorText } from "../../lib/api";
import { draftErrors, draftProblems, kindInfo, toProfile } from "../../lib/providers";
import type { DraftErrors, ProviderDraft } from "../../lib/providers";
import type { Providers } from "../../lib/types";
import { ModelPicker } from "./ModelPicker";
import type { ModelsState } from "./ModelPicker";
import { ProfileSettingsFields } from "./ProfileSettingsFields";

interface Props {
  initial: ProviderDraft;
  /** The server's models when they are known already (a server Find local servers found). */
  initialModels?: ModelList_Serialize;
  onSaved: (view: Providers, name: string) => void;
  onCancel: () => void;
}

export function ProviderForm({ initial, initialModels, onSaved, onCancel }: Props) {
  const [d, setD] = useState<ProviderDraft>(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const editsServer = initial.original !== null && !kindInfo(initial.kind).runs_command && !initialModels;
  const [models, setModels] = useState<ModelsState>(
    initialModels ? { state: "listed", list: initialModels } : editsServer ? { state: "loading" } : { state: "idle" },
  );
  const [typing, setTyping] = useState(false);
  /** The latest model-list request; an older answer is dropped. */
  const asked = useRef(0);
  const info = kindInfo(d.kind);
  const isCommand = info.runs_command;
  const set = <K extends keyof ProviderDraft>(k: K, v: ProviderDraft[K]) => {
    setD((x) => ({ ...x, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
    setFormError(null);
    if (k === "kind" || k === "baseUrl") {
      // Another server: its list is not this one's.
      asked.current++;
      setModels({ state: "idle" });
      setTyping(false);
    }
  };

  // Asks the server for its models, for the profile as the form has it now; the answer to an
  // older question is dropped.
  const askModels = (draft: ProviderDraft): Promise<{ ask: number; answer: ModelsState }> => {
    const ask = ++asked.current;
    // Only a key typed here goes with the question; Rust adds the saved key itself while the
    // form still points where that key was saved for.
    const key = draft.keySource === "keychain" && draft.key !== "" ? draft.key : null;
    return call(commands.providerModels({ from: "unsaved", profile: toProfile(draft), key })).then(
      (list): { ask: number; answer: ModelsState } => ({ ask, answer: { state: "listed", list } }),
      (err: unknown): { ask: number; answer: ModelsState } => ({ ask, answer: { state: "error", message: errorText(err) } }),
    );
  };
  const listModels = (draft: ProviderDraft) => {
    setModels({ state: "loading" });
    void askModels(draft).then(({ ask, answer }) => {
      if (ask === asked.current) setModels(answer);
    });
  };
  // A saved server profile opened for editing lists its models at once (its state starts as
  // "loading").
  useEffect(() => {
    if (!editsServer) return;
    void askModels(initial).then(({ ask, answer }) => {
      if (ask === asked.current) setModels(answer);
    });
    // Once, for the profile the form opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const choose = (model: string, entry: ModelEntry_Serialize | null) => {
    setD((x) => {
      // The chosen model's context fills the field unless the writer typed another value.
      const listed = models.state === "listed" ? models.list.models : [];
      const previous = listed.find((m) => m.id === x.model)?.context_length;
      const untouched = x.contextLength === "" || x.contextLength === String(previous ?? "");
      const context = entry?.context_length && untouched ? String(entry.context_length) : x.contextLength;
      return { ...x, model, contextLength: context };
    });
    setErrors((e) => ({ ...e, model: undefined, contextLength: undefined }));
    setFormError(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problems = draftProblems(d);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setFormError("Some fields need attention before the provider can be saved.");
      return;
    }
    setErrors({});
    setSaving(true);
    setFormError(null);
    try {
      let view = await call(commands.saveProvider(toProfile(d), d.makeDefault));
      if (!isCommand && d.keySource === "keychain" && d.key !== "") {
        view = await call(commands.storeProviderKey(d.name.trim(), d.key));
      }
      setD((x) => ({ ...x, key: "" }));
      onSaved(view, d.name.trim());
    } catch (err) {
      const error = appError(err);
      if (error.kind === "invalid_form") {
        const found = draftErrors(error.fields);
        setErrors(found);
        setFormError(found.form ? `${error.message} ${found.form}` : error.message);
      } else {
        setFormError(error.message || "Something went wrong.");
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="card provider-form" onSubmit={submit} noValidate data-testid="provider-form">
      <h3>{d.original ? `Edit “${d.original.name}”` : "Add a provider"}</h3>
      <div className="field-row">
        <div className={`field${errors.name ? " has-error" : ""}`}>
          <label htmlFor="provider-name">Name</label>
          <input
            id="provider-name"
            data-testid="provider-name"
            value={d.name}
            readOnly={d.original !== null}
            placeholder="local"
            onChange={(e) => set("name", e.target.value)}
          />
          {errors.name && <p className="field-error">{errors.name}</p>}
        </div>
        <div className="field">
          <label htmlFor="provider-kind">Kind</label>
          <select id="provider-kind" data-testid="provider-kind" value={d.kind} onChange={(e) => set("kind", e.target.value as ProviderKind)}>
            {PROVIDER_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {isCommand ? (
        <div className={`field${errors.command ? " has-error" : ""}`}>
          <label htmlFor="provider-command">Command</label>
          <textarea
            id="provider-command"
            data-testid="provider-command"
            rows={3}
            value={d.command}
            placeholder={"codex\nexec\n-"}
            onChange={(e) => set("command", e.target.value)}
          />
          <p className="field-hint">The program and its arguments, one per line. It reads the prompt on standard input.</p>
          {errors.command && <p className="field-error">{errors.command}</p>}
        </div>
      ) : (
        <>
          <div className="field-row">
            <div className={`field${errors.baseUrl ? " has-error" : ""}`}>
              <label htmlFor="provider-base-url">Server address</label>
              <input
                id="provider-base-url"
                data-testid="provider-base-url"
                value={d.baseUrl}
                placeholder={info.default_base_url ?? ""}
                onChange={(e) => set("baseUrl", e.target.value)}
              />
              {errors.baseUrl ? (
                <p className="field-error">{errors.baseUrl}</p>
              ) : (
                info.default_base_url && <p className="field-hint">Leave empty for {info.default_base_url}</p>
              )}
            </div>
            <ModelPicker
              model={d.model}
              models={models}
              typing={typing}
              error={errors.model}
              onList={() => listModels(d)}
              onChoose={choose}
              onTyping={setTyping}
            />
          </div>
          <div className="field-row">
            <div className={`field${errors.keySource ? " has-error" : ""}`}>
              <label htmlFor="provider-key-source">API key</label>
              <select
                id="provider-key-source"
                data-testid="provider-key-source"
                value={d.keySource}
                onChange={(e) => set("keySource", e.target.value as KeySource)}
              >
                <option value="env">From an environment variable</option>
                <option value="keychain">Stored in the system keychain</option>
              </select>
              {errors.keySource && <p className="field-error">{errors.keySource}</p>}
            </div>
            {d.keySource === "env" ? (
              <div className={`field${errors.keyEnv ? " has-error" : ""}`}>
                <label htmlFor="provider-key-env">Variable name</label>
                <input
                  id="provider-key-env"
                  data-testid="provider-key-env"
                  value={d.keyEnv}
                  placeholder={info.default_api_key_env ?? "none needed for a local server"}
                  onChange={(e) => set("keyEnv", e.target.value)}
                />
                {errors.keyEnv ? <p className="field-error">{errors.keyEnv}</p> : <p className="field-hint">The NAME of the variable, not the key.</p>}
              </div>
            ) : (
              <div className="field">
                <label htmlFor="provider-key">Key</label>
                <input
                  id="provider-key"
                  data-testid="provider-key"
                  type="password"
                  autoComplete="off"
                  value={d.key}
                  placeholder={d.original?.key_source === "keychain" ? "Stored — type to replace it" : "Paste the key"}
                  onChange={(e) => set("key", e.target.value)}
                />
                <p className="field-hint">Kept in the system keychain only, never in a file.</p>
              </div>
            )}
          </div>
        </>
      )}
      <ProfileSettingsFields draft={d} errors={errors} runsCommand={isCommand} set={set} />
      <label className="check">
        <input type="checkbox" data-testid="provider-default" checked={d.makeDefault} onChange={(e) => set("makeDefault", e.target.checked)} />
        Use this provider for writing
      </label>
      {formError && (
        <p className="notice notice-error" role="alert" data-testid="provider-error">
          {formError}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" data-testid="provider-cancel" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" data-testid="provider-save" disabled={saving}>
          {saving ? "Saving…" : "Save provider"}
        </button>
      </div>
    </form>
  );
}

// Starting a "what if": a new branch at a scene (or at the latest), named by the writer and
// made current, so the next scene continues from there. The branch left behind keeps its
// scenes and can be switched back to.
import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import { FormDialog } from "../../components/FormDialog";
import { Icon } from "../../components/Icon";
import { call, errorText } from "../../lib/api";
import { useToast } from "../../lib/toast";

interface Props {
  /** The scene the branch starts after; `null`: the latest. */
  at: number | null;
  onClose: () => void;
  onCreated?: (name: string) => void;
}

export function NewBranchDialog({ at, onClose, onCreated }: Props) {
  const notify = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === "") {
      setError("Give the branch a name, for example “what if she stays”.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const made = await call(commands.newBranch(name.trim(), at));
      notify(at === null ? `You are now on the branch “${made}”.` : `You are now on the branch “${made}”, right after scene ${at}.`);
      onCreated?.(made);
      onClose();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <FormDialog name="new-branch" title={at === null ? "New branch" : `New branch from scene ${at}`} busy={busy} onClose={onClose} onSubmit={(e) => void submit(e)}>
      <p className="muted small">
        {at === null
          ? "The story goes on in the new branch; the branch you are on keeps what it has."
          : `The new branch starts right after scene ${at}. The scenes after it stay in the branch you are on, which you can switch back to.`}
      </p>
      <div className="field">
        <label htmlFor="new-branch-name">Name</label>
        <input
          id="new-branch-name"
          ref={input}
          data-testid="new-branch-name"
          value={name}
          maxLength={80}
          placeholder="what if she stays"
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="new-branch-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-quiet" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" data-testid="new-branch-create" disabled={busy}>
          <Icon name="branch" /> {busy ? "Making…" : "Make the branch"}
        </button>
      </div>
    </FormDialog>
  );
}

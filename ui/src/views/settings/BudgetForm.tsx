// The open novel's spending limits (novel.toml's `[budget]`): tokens and cost per run and over
// the whole novel, cost at the profiles' prices. A run pauses before the call that would pass
// one. Empty is no limit.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { BudgetConfig_Serialize, Limits_Deserialize } from "../../bindings";
import { call, errorText } from "../../lib/api";
import { useToast } from "../../lib/toast";

type Field = "runTokens" | "runCost" | "novelTokens" | "novelCost";

const FIELDS: { name: Field; label: string; whole: boolean }[] = [
  { name: "runTokens", label: "Tokens per run", whole: true },
  { name: "runCost", label: "Cost per run", whole: false },
  { name: "novelTokens", label: "Tokens for the whole novel", whole: true },
  { name: "novelCost", label: "Cost for the whole novel", whole: false },
];

const text = (n: number | null | undefined) => (n === undefined || n === null ? "" : String(n));

export function BudgetForm({ budget }: { budget: BudgetConfig_Serialize }) {
  const notify = useToast();
  const [values, setValues] = useState<Record<Field, string>>(() => ({
    runTokens: text(budget.run?.tokens),
    runCost: text(budget.run?.cost),
    novelTokens: text(budget.novel?.tokens),
    novelCost: text(budget.novel?.cost),
  }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    const parsed: Partial<Record<Field, number>> = {};
    for (const f of FIELDS) {
      const typed = values[f.name].trim();
      if (typed === "") continue;
      const n = Number(typed);
      if (f.whole ? !Number.isInteger(n) || n < 1 : !Number.isFinite(n) || n < 0) {
        found[f.name] = f.whole ? "Enter a whole number of tokens (1 or more), or leave it empty for no limit." : "Enter an amount of 0 or more, or leave it empty for no limit.";
      } else {
        parsed[f.name] = n;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const limits = (tokens?: number, cost?: number): Limits_Deserialize => ({ tokens: tokens ?? null, cost: cost ?? null });
    setSaving(true);
    setError(null);
    try {
      await call(commands.saveBudget({ run: limits(parsed.runTokens, parsed.runCost), novel: limits(parsed.novelTokens, parsed.novelCost) }));
      notify("Budget saved.");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="card role-models" onSubmit={submit} noValidate data-testid="budget-form">
      <h3>Budget</h3>
      <p className="muted small">A run pauses before the call that would pass a limit, and says so; the story stays as it was. Cost is counted at each provider's prices.</p>
      <div className="field-grid">
        {FIELDS.map((f) => (
          <div className={`field${errors[f.name] ? " has-error" : ""}`} key={f.name}>
            <label htmlFor={`budget-${f.name}`}>{f.label}</label>
            <input
              id={`budget-${f.name}`}
              data-testid={`budget-${f.name}`}
              inputMode="decimal"
              placeholder="no limit"
              value={values[f.name]}
              onChange={(e) => {
                setValues((v) => ({ ...v, [f.name]: e.target.value }));
                setErrors((x) => ({ ...x, [f.name]: undefined }));
              }}
            />
            {errors[f.name] && <p className="field-error">{errors[f.name]}</p>}
          </div>
        ))}
      </div>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="budget-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" data-testid="budget-save" disabled={saving}>
          {saving ? "Saving…" : "Save budget"}
        </button>
      </div>
    </form>
  );
}

// Small helpers shared by the bible's forms: lists typed as comma- or line-separated text,
// and running one writer's edit with its error kept for the form.
import { useCallback, useState } from "react";
import { errorText } from "../../lib/api";

/** "a, b ,, c" → ["a", "b", "c"]. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function joinList(items: readonly string[] | null | undefined): string {
  return (items ?? []).join(", ");
}

/** Runs `action`, remembering its error (for the form to show) and whether it is running. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(null) };
}

export function FormError({ error, testId }: { error: string | null; testId: string }) {
  if (!error) return null;
  return (
    <p className="notice notice-error" role="alert" data-testid={testId}>
      {error}
    </p>
  );
}

// One toast at a time (the newest replaces the last): short confirmations such as
// "Manuscript exported to …". It never takes clicks, so it can never cover a button — except
// its own one action when it has one ("Scene 3 deleted. Undo"), which stays a little longer.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";

export type ToastTone = "info" | "success" | "error";

/** A button in the toast, such as Undo. */
export interface ToastAction {
  label: string;
  run: () => void;
}

interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
  action?: ToastAction;
}

type Notify = (text: string, tone?: ToastTone, action?: ToastAction) => void;

const ToastContext = createContext<Notify>(() => undefined);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const notify = useCallback<Notify>((text, tone = "success", action) => {
    setToast((last) => ({ id: (last?.id ?? 0) + 1, text, tone, action }));
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast((t) => (t?.id === toast.id ? null : t)), toast.tone === "error" || toast.action ? 9000 : 6000);
    return () => window.clearTimeout(timer);
  }, [toast]);

  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast-region" aria-live="polite">
        {toast && (
          <div key={toast.id} className={`toast toast-${toast.tone}`} data-testid="toast" role={toast.tone === "error" ? "alert" : "status"}>
            {toast.text}
            {toast.action && (
              <button
                type="button"
                className="toast-action"
                data-testid="toast-action"
                onClick={() => {
                  const run = toast.action?.run;
                  setToast(null);
                  run?.();
                }}
              >
                {toast.action.label}
              </button>
            )}
          </div>
        )}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Notify {
  return useContext(ToastContext);
}

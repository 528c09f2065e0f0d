// One toast at a time (the newest replaces the last): short confirmations such as
// "Manuscript exported to …". It never takes clicks, so it can never cover a button.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";

export type ToastTone = "info" | "success" | "error";

interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
}

type Notify = (text: string, tone?: ToastTone) => void;

const ToastContext = createContext<Notify>(() => undefined);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const notify = useCallback<Notify>((text, tone = "success") => {
    setToast((last) => ({ id: (last?.id ?? 0) + 1, text, tone }));
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast((t) => (t?.id === toast.id ? null : t)), toast.tone === "error" ? 9000 : 6000);
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
          </div>
        )}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Notify {
  return useContext(ToastContext);
}

// Loads data for a view from a command and reloads it when `key` changes (e.g. on every
// novel change); keeps the previous data on screen while the next answer is on its way.
import { useCallback, useEffect, useRef, useState } from "react";

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [nonce, setNonce] = useState(0);
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown }>({ key: null });
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });
  const fullKey = key === null ? null : `${key}#${nonce}`;
  useEffect(() => {
    if (fullKey === null) return;
    let alive = true;
    loader.current().then(
      (data) => {
        if (alive) setState({ key: fullKey, data });
      },
      (error: unknown) => {
        if (alive) setState((s) => ({ key: fullKey, data: s.data, error }));
      },
    );
    return () => {
      alive = false;
    };
  }, [fullKey]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return {
    data: state.data,
    error: state.key === fullKey ? state.error : undefined,
    loading: fullKey !== null && state.key !== fullKey,
    reload,
  };
}

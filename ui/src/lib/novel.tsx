// The open novel, app-wide: its overview (title, counts, pending failure), a `version` that
// bumps on every `novel-changed` event so views reload, and `refresh` for after a command.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";
import { commands, events } from "../bindings";
import type { ChangeReason } from "../bindings";
import { call } from "./api";
import type { Overview } from "./types";

export interface NovelState {
  overview: Overview | null;
  /** False until the first `currentNovel` answer. */
  loaded: boolean;
  /** Bumps on every change of the open novel; views reload their data when it does. */
  version: number;
  lastReason: ChangeReason | null;
  setOverview: (overview: Overview | null) => void;
  refresh: () => Promise<Overview | null>;
  /** Called with the reason of every `novel-changed` event; returns the unsubscribe. */
  subscribe: (listener: (reason: ChangeReason) => void) => () => void;
}

const NovelContext = createContext<NovelState | null>(null);

export function NovelProvider({ children }: { children: ReactNode }) {
  const [overview, setOverviewState] = useState<Overview | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [version, setVersion] = useState(0);
  const [lastReason, setLastReason] = useState<ChangeReason | null>(null);
  const listeners = useRef(new Set<(reason: ChangeReason) => void>());

  const refresh = useCallback(async () => {
    try {
      const current = await call(commands.currentNovel());
      setOverviewState(current);
      return current;
    } finally {
      setLoaded(true);
    }
  }, []);

  const setOverview = useCallback((next: Overview | null) => {
    setOverviewState(next);
    setVersion((v) => v + 1);
  }, []);

  const subscribe = useCallback((listener: (reason: ChangeReason) => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  useEffect(() => {
    refresh().catch(() => undefined);
    let stop: (() => void) | null = null;
    let gone = false;
    events.novelChanged
      .listen((event) => {
        const reason = event.payload.reason;
        setLastReason(reason);
        setVersion((v) => v + 1);
        if (reason === "closed") setOverviewState(null);
        else refresh().catch(() => undefined);
        for (const listener of listeners.current) listener(reason);
      })
      .then((unlisten) => {
        if (gone) unlisten();
        else stop = unlisten;
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      stop?.();
    };
  }, [refresh]);

  const value = useMemo(
    () => ({ overview, loaded, version, lastReason, setOverview, refresh, subscribe }),
    [overview, loaded, version, lastReason, setOverview, refresh, subscribe],
  );
  return <NovelContext.Provider value={value}>{children}</NovelContext.Provider>;
}

export function useNovel(): NovelState {
  const state = useContext(NovelContext);
  if (!state) throw new Error("useNovel outside NovelProvider");
  return state;
}

// Where the writer was: the novel and the view, kept in localStorage, so a new launch opens the
// same book at the same view. The novel is reopened only while the shell's own recent list
// still has it (the folder may be gone, or this may be another profile's list).
import { useEffect, useRef } from "react";
import { commands } from "../bindings";
import { call } from "./api";
import { useNovel } from "./novel";
import { VIEWS } from "./views";
import type { ViewId } from "./views";

const KEY = "novel-agent.last-place";

export interface LastPlace {
  path: string;
  view: ViewId;
}

export function lastPlace(): LastPlace | null {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (!raw || typeof raw !== "object") return null;
    const { path, view } = raw as Record<string, unknown>;
    if (typeof path !== "string" || !VIEWS.some((v) => v.id === view)) return null;
    return { path, view: view as ViewId };
  } catch {
    return null;
  }
}

function remember(place: LastPlace) {
  try {
    localStorage.setItem(KEY, JSON.stringify(place));
  } catch {
    // Not remembered this time: the next launch opens the Library.
  }
}

/**
 * Once at launch: reopens the last novel (unless one is open already) and shows its last view;
 * from then on remembers the open novel and the view on every change.
 */
export function useLastPlace(view: ViewId, setView: (view: ViewId) => void) {
  const { overview, loaded, setOverview } = useNovel();
  const settled = useRef(false);

  useEffect(() => {
    if (!loaded || settled.current) return;
    const last = lastPlace();
    if (!last || overview) {
      settled.current = true;
      if (last && overview?.path === last.path) setView(last.view);
      return;
    }
    let gone = false;
    void (async () => {
      try {
        const recent = await call(commands.recentNovels());
        if (gone || !recent.some((r) => r.path === last.path && !r.missing)) return;
        const opened = await call(commands.openNovel(last.path));
        if (gone) return;
        setOverview(opened);
        setView(last.view);
      } catch {
        // The folder is busy or no longer a novel: the Library says so when the writer opens it.
      } finally {
        if (!gone) settled.current = true;
      }
    })();
    return () => {
      gone = true;
    };
  }, [loaded, overview, setOverview, setView]);

  const path = overview?.path ?? null;
  useEffect(() => {
    if (settled.current && path) remember({ path, view });
  }, [path, view]);
}

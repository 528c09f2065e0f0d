// The names in the reader that open codex pages: loaded once per novel state for every scene
// (not once per scene), and found in a scene's text as whole words, case as written, longest
// name first ("Tamsin Vale" before "Tamsin"); an apostrophe in a name matches a curly one too,
// since the reader shows typographic quotes. Only the first mention of each page in a scene is
// a link: a reader who wants the page finds it where the name first appears, and the prose
// does not turn into a page of underlines.
import { useEffect, useState } from "react";
import { commands } from "../bindings";
import type { CodexName } from "../bindings";
import { call } from "./api";
import { useNovel } from "./novel";

let cached: { key: string; names: Promise<CodexName[]> } | null = null;

/** Every codex page's names, for the novel as it is now; empty until loaded (or on error). */
export function useCodexNames(): CodexName[] {
  const { overview, version } = useNovel();
  const key = overview ? `${overview.path}:${version}` : null;
  const [names, setNames] = useState<{ key: string | null; list: CodexName[] }>({ key: null, list: [] });
  useEffect(() => {
    if (key === null) return;
    if (cached?.key !== key) cached = { key, names: call(commands.codexNames()).catch(() => []) };
    let alive = true;
    void cached.names.then((list) => {
      if (alive) setNames({ key, list });
    });
    return () => {
      alive = false;
    };
  }, [key]);
  return names.key === key ? names.list : [];
}

/** One name found in a text: where, and the page it opens. */
export interface NameHit {
  start: number;
  end: number;
  id: string;
  title: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/'/g, "['’]");

/** A finder of the names in a text (none when there are no names). */
export function nameFinder(names: CodexName[]): (text: string) => NameHit[] {
  const byName = new Map<string, CodexName>();
  for (const n of names) for (const name of n.names) if (!byName.has(name)) byName.set(name, n);
  const all = [...byName.keys()].sort((a, b) => b.length - a.length);
  if (all.length === 0) return () => [];
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${all.map(escape).join("|")})(?![\\p{L}\\p{N}])`, "gu");
  const norm = (s: string) => s.replace(/’/g, "'");
  return (text) =>
    [...text.matchAll(re)].flatMap((m) => {
      const page = byName.get(norm(m[0])) ?? byName.get(m[0]);
      return page ? [{ start: m.index, end: m.index + m[0].length, id: page.id, title: page.title }] : [];
    });
}

// Small text formatters shared by the views: counts, plurals, durations, tokens.
import type { TickSummary } from "./types";

const numberFormat = new Intl.NumberFormat("en");

export function count(n: number): string {
  return numberFormat.format(n);
}

/** "1 scene", "3 scenes", "1,204 words". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s % 60)} s`;
}

export function tokens(n: number): string {
  return n >= 10000 ? `${(n / 1000).toFixed(1)}k tokens` : plural(n, "token");
}

/**
 * "1,840 of 2,950 prompt tokens read from the server's cache (62%)", summed over a tick's
 * roles; null when no call read from a cache (or the servers do not report it).
 */
export function cachedPrompt(usage: TickSummary["usage"]): string | null {
  let cached = 0;
  let prompt = 0;
  for (const role of Object.values(usage.roles)) {
    cached += role.cached_tokens ?? 0;
    prompt += role.prompt_tokens;
  }
  if (cached <= 0 || prompt <= 0) return null;
  // Rounded, but some cached never reads as 0% and not all of it never as 100%.
  const share = Math.min(cached < prompt ? 99 : 100, Math.max(1, Math.round((cached / prompt) * 100)));
  return `${count(cached)} of ${plural(prompt, "prompt token")} read from the server's cache (${share}%)`;
}

export function wordCount(text: string): number {
  const words = text.trim().match(/\S+/g);
  return words ? words.length : 0;
}

/** The last path segment, for short display of a folder or file. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : path;
}

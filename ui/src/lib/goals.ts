// Word-count goals, kept per novel in this app's localStorage (keyed by the novel's folder):
// a goal for the whole book, one for each day and one for each writing session. They are the
// writer's own targets, not part of the story, so they stay out of the novel folder. Today's
// progress counts from the book's length the first time the novel was seen that day (local
// date); a session's from its length when the app's window first showed the novel (kept in
// sessionStorage, so a reload continues the session and a new launch starts one); cutting
// words never counts below zero.

const PREFIX = "novel-agent.word-goals:";

export interface WordGoals {
  /** Words the book should reach; null: no book goal. */
  book: number | null;
  /** Words to add each day; null: no daily goal. */
  daily: number | null;
  /** Words to add each writing session; null: no session goal. */
  session: number | null;
  /** The local date (YYYY-MM-DD) `dayStart` belongs to. */
  day: string;
  /** The book's length when `day` began. */
  dayStart: number;
}

/** Today's local date as YYYY-MM-DD. */
export function localDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const positive = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : null);

function read(path: string): Partial<WordGoals> {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(PREFIX + path) ?? "{}");
    return typeof raw === "object" && raw !== null ? (raw as Partial<WordGoals>) : {};
  } catch {
    return {};
  }
}

function write(path: string, goals: WordGoals) {
  try {
    localStorage.setItem(PREFIX + path, JSON.stringify(goals));
  } catch {
    // Storage full or disabled: the goals work for this session, they just are not kept.
  }
}

/** The goals of the novel at `path`, today's start set to `words` when the day is new. */
export function goalsFor(path: string, words: number, today = localDay()): WordGoals {
  const raw = read(path);
  const goals: WordGoals = {
    book: positive(raw.book),
    daily: positive(raw.daily),
    session: positive(raw.session),
    day: typeof raw.day === "string" ? raw.day : "",
    dayStart: typeof raw.dayStart === "number" && raw.dayStart >= 0 ? raw.dayStart : words,
  };
  if (goals.day !== today) {
    goals.day = today;
    goals.dayStart = words;
    if (goals.book !== null || goals.daily !== null || goals.session !== null) write(path, goals);
  }
  return goals;
}

/** Saves new targets, keeping today's start. */
export function saveGoals(path: string, goals: WordGoals): WordGoals {
  const next = { ...goals, book: positive(goals.book), daily: positive(goals.daily), session: positive(goals.session) };
  write(path, next);
  return next;
}

/** Words added today (never below zero). */
export function wordsToday(goals: WordGoals, words: number): number {
  return Math.max(0, words - goals.dayStart);
}

const SESSION_PREFIX = "novel-agent.session-start:";

/** The book's length when this session first showed the novel at `path`. */
export function sessionStart(path: string, words: number): number {
  try {
    const raw = sessionStorage.getItem(SESSION_PREFIX + path);
    const start = raw === null ? NaN : Number(raw);
    if (Number.isFinite(start) && start >= 0) return start;
    sessionStorage.setItem(SESSION_PREFIX + path, String(words));
  } catch {
    // No session storage: the session starts now.
  }
  return words;
}

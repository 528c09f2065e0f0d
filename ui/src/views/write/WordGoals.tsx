// Word-count goals in Write: this session's and today's words against their goals and the
// book's length against the book goal, each with a progress bar, and a small form to set or
// clear them.
// Kept per novel in this app (see lib/goals.ts).
import { useState } from "react";
import type { FormEvent } from "react";
import { count } from "../../lib/format";
import { goalsFor, saveGoals, sessionStart, wordsToday } from "../../lib/goals";
import type { WordGoals as Goals } from "../../lib/goals";
import "../../styles/goals.css";

function Bar({ label, value, goal, testId }: { label: string; value: number; goal: number; testId: string }) {
  const done = value >= goal;
  return (
    <div className={`goal${done ? " goal-done" : ""}`} data-testid={testId}>
      <span className="goal-label">{label}</span>
      <progress value={Math.min(value, goal)} max={goal} aria-label={`${label}: ${count(value)} of ${count(goal)} words`} />
      <span className="goal-count" data-testid={`${testId}-count`}>
        {count(value)} / {count(goal)} words{done ? " ✓" : ""}
      </span>
    </div>
  );
}

const parse = (s: string): number | null => {
  const n = Number(s.replace(/[\s,._]/g, ""));
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null;
};

/** Keyed by the novel's path by its parent, so each novel starts from its own goals. */
export function WordGoals({ path, words }: { path: string; words: number }) {
  const [goals, setGoals] = useState<Goals>(() => goalsFor(path, words));
  const [started] = useState(() => sessionStart(path, words));
  const [editing, setEditing] = useState(false);
  const [book, setBook] = useState("");
  const [daily, setDaily] = useState("");
  const [session, setSession] = useState("");
  const [error, setError] = useState<string | null>(null);
  const none = goals.book === null && goals.daily === null && goals.session === null;

  const open = () => {
    setBook(goals.book ? String(goals.book) : "");
    setDaily(goals.daily ? String(goals.daily) : "");
    setSession(goals.session ? String(goals.session) : "");
    setError(null);
    setEditing(true);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = {
      book: book.trim() ? parse(book) : null,
      daily: daily.trim() ? parse(daily) : null,
      session: session.trim() ? parse(session) : null,
    };
    if ((book.trim() && next.book === null) || (daily.trim() && next.daily === null) || (session.trim() && next.session === null)) {
      setError("A goal is a whole number of words above zero, e.g. 80000; leave it empty for none.");
      return;
    }
    setGoals(saveGoals(path, { ...goals, ...next }));
    setEditing(false);
  };

  if (editing) {
    return (
      <form className="word-goals editing" data-testid="goals-form" onSubmit={submit} noValidate>
        <label>
          Book goal
          <input data-testid="goal-book" inputMode="numeric" value={book} placeholder="e.g. 80000" onChange={(e) => setBook(e.target.value)} />
        </label>
        <label>
          This session
          <input data-testid="goal-session" inputMode="numeric" value={session} placeholder="e.g. 300" onChange={(e) => setSession(e.target.value)} />
        </label>
        <label>
          Words a day
          <input data-testid="goal-daily" inputMode="numeric" value={daily} placeholder="e.g. 1000" onChange={(e) => setDaily(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-primary btn-small" data-testid="goals-save">
          Save
        </button>
        <button type="button" className="btn btn-quiet btn-small" onClick={() => setEditing(false)}>
          Cancel
        </button>
        {error && (
          <p className="field-error" role="alert" data-testid="goals-error">
            {error}
          </p>
        )}
      </form>
    );
  }

  return (
    <div className="word-goals" data-testid="word-goals">
      {goals.session !== null && <Bar label="Session" value={Math.max(0, words - started)} goal={goals.session} testId="goal-session-progress" />}
      {goals.daily !== null && <Bar label="Today" value={wordsToday(goals, words)} goal={goals.daily} testId="goal-today" />}
      {goals.book !== null && <Bar label="Book" value={words} goal={goals.book} testId="goal-book-progress" />}
      <button type="button" className="btn btn-quiet btn-small" data-testid="goals-edit" onClick={open}>
        {none ? "Set a word goal" : "Goals…"}
      </button>
    </div>
  );
}

// The mocked book audit (`audit_book`): a report of the mock novel's own scenes, shaped as the
// engine's (docs/audit.md) — eleven criteria in the engine's order and words, failures planted
// at fixed places of the book (a scene that missed its plan, a question left untouched, a scene
// in another voice, a dead man's errand, an alike opening), one row per scene for the charts,
// questions opened and answered per chapter — cut to the range asked for, as the engine does.
import type { AppError, AuditFailure_Serialize, AuditReport_Serialize, ChapterLoops, Criterion_Serialize, CriterionKey, LoopRow_Serialize, SceneRef, SceneRow_Serialize, SceneView_Serialize } from "../../src/bindings";

interface Deps {
  need: () => void;
  scenes: () => SceneView_Serialize[];
}

/** Four scenes to a chapter, as the mock's contents. */
const PER_CHAPTER = 4;

/** Where the faults sit, as a share of the book (so any length of mock novel has them). */
const at = (n: number, share: number) => Math.max(1, Math.min(n, Math.round(n * share)));

/** The open questions of the book: when each opened, the scenes that moved it, when it closed. */
function loopsOf(n: number): LoopRow_Serialize[] {
  const rows: LoopRow_Serialize[] = [];
  const questions = [
    "Who put her name on the slate?",
    "What does the harbour master owe the smuggler?",
    "Where did the missing page go?",
    "Why is the lighthouse dark on market nights?",
    "Who paid the boatman twice?",
    "What is behind the sealed door in the cellar?",
  ];
  questions.forEach((description, i) => {
    const opened = i === 0 ? 0 : at(n, (i * 0.15) % 1);
    const resolvedAt = i % 2 === 1 ? Math.min(n, opened + 4) : null;
    const touched = [opened + 1, opened + 2].filter((t) => t >= 1 && t <= n && (resolvedAt === null || t < resolvedAt));
    const last = touched.length ? touched[touched.length - 1] : opened;
    const resolved = resolvedAt !== null && resolvedAt > opened ? resolvedAt : null;
    rows.push({
      id: `O${i}`,
      description,
      importance: i < 2 ? "major" : "minor",
      opened,
      touched,
      resolved,
      status: resolved !== null ? "resolved" : "open",
      age: resolved !== null ? 0 : n - last,
      longest_silence: resolved !== null ? 1 : n - last,
    });
  });
  return rows;
}

function criterion(key: CriterionKey, title: string, score: number | null, measure: string, failures: AuditFailure_Serialize[] = []): Criterion_Serialize {
  return { key, title, score, measure, failures };
}

/** The report of scenes `from..=to` of `scenes`. */
export function auditReport(all: SceneView_Serialize[], from: number | null, to: number | null): AuditReport_Serialize {
  const n = all.length;
  const first = from ?? 1;
  const last = Math.min(to ?? n, n);
  const scenes = all.filter((s) => s.tick >= first && s.tick <= last);
  const ref = (tick: number): SceneRef => ({ scene: tick, title: tick === 0 ? "the start of the book" : (all.find((s) => s.tick === tick)?.title ?? "") });
  const inRange = (t: number) => t >= first && t <= last;
  const loops = loopsOf(n).filter((l) => l.opened <= last && (l.resolved === null || l.resolved >= first));
  const missed = at(n, 0.25);
  const drift = at(n, 0.6);
  const dead = at(n, 0.8);
  const quiet = loops.find((l) => l.status === "open" && l.age > 12);
  const rows: SceneRow_Serialize[] = scenes.map((s) => ({
    scene: s.tick,
    title: s.title,
    words: s.word_count,
    plan: s.tick === missed ? "not" : s.tick % 5 === 0 ? "partly" : "realized",
    tension: [3, 4, 5, 5, 6, 4, 7, 8][s.tick % 8],
    open_loops: loops.filter((l) => l.opened <= s.tick && (l.resolved === null || l.resolved > s.tick)).length,
    voice_distance: s.tick === drift ? 4.6 : [0.4, 1.1, 0.7, 1.8, 0.9, 1.3][s.tick % 6],
    stock_per_1000: [0.8, 1.2, 0.5, 1.6][s.tick % 4],
    calls: 4,
    tokens: s.tick === 2 ? 41200 : 9800 + (s.tick % 3) * 700,
    revised: s.tick % 7 === 3,
    failed_attempts: 0,
  }));
  const judged = rows.length;
  const realized = rows.filter((r) => r.plan === "realized").length;
  const partly = rows.filter((r) => r.plan === "partly").length;
  const chapters: ChapterLoops[] = [];
  for (let c = 0; c * PER_CHAPTER < n; c++) {
    const a = c * PER_CHAPTER + 1;
    const b = Math.min(n, a + PER_CHAPTER - 1);
    if (b < first || a > last) continue;
    const within = (t: number | null) => t !== null && t >= Math.max(a, first) && t <= Math.min(b, last);
    chapters.push({ chapter: c + 1, title: `Chapter ${c + 1}`, first_scene: a, last_scene: b, opened: loops.filter((l) => within(l.opened)).length, resolved: loops.filter((l) => within(l.resolved)).length });
  }
  const planFailures: AuditFailure_Serialize[] = inRange(missed)
    ? [{ kind: "plan_not_realized", scenes: [ref(missed)], why: "The scene was meant to have Tamsin confront the harbour master, and it never does. Missed: the confrontation; the debt named aloud." }]
    : [];
  const loopFailures: AuditFailure_Serialize[] = quiet
    ? [{ kind: "loop_untouched", scenes: [ref(quiet.opened), ref(last)], why: `“${quiet.description}” has not moved for ${quiet.age} scenes since ${quiet.opened === 0 ? "the start of the book" : `scene ${quiet.opened}`}.`, record: quiet.id }]
    : [];
  const voiceFailures: AuditFailure_Serialize[] = inRange(drift)
    ? [{ kind: "voice_drift", scenes: [ref(drift)], why: "This scene reads unlike the rest of the book: much shorter sentences, far more dialogue and twice the filter words (saw, heard, felt)." }]
    : [];
  const recordFailures: AuditFailure_Serialize[] = inRange(dead) && dead > 2
    ? [{ kind: "dead_active", scenes: [ref(dead), ref(dead - 2)], why: `The ferryman died in scene ${dead - 2}, yet he is given the brass key here.`, record: "C3" }]
    : [];
  const repetition: AuditFailure_Serialize[] = scenes.length >= 3
    ? [{ kind: "alike_openings", scenes: [ref(scenes[2].tick), ref(scenes[0].tick)], why: "This scene opens almost as an earlier one does: “The rain had not stopped since morning…”." }]
    : [];
  const costly = inRange(2) ? [{ kind: "costly_scene" as const, scenes: [ref(2)], why: "This scene took 41,200 tokens, four times the usual scene, after two revisions." }] : [];
  const count = scenes.length;
  const criteria: Criterion_Serialize[] =
    count === 0
      ? (
          [
            ["plan", "Scenes do what they set out to do"],
            ["beats", "The outline is followed, beat by beat"],
            ["loops", "Open questions are kept alive and answered"],
            ["stalls", "The story moves on instead of repeating itself"],
            ["entities", "The people of the story change"],
            ["contradictions", "The records agree with each other"],
            ["pov", "The point of view holds"],
            ["voice", "Every scene sounds like the book"],
            ["tension", "The tension rises and falls"],
            ["repetition", "The prose does not repeat itself"],
            ["cost", "What the book cost"],
          ] as [CriterionKey, string][]
        ).map(([key, title]) => criterion(key, title, null, "no scenes to judge"))
      : [
          criterion("plan", "Scenes do what they set out to do", Math.round((100 * (realized + partly / 2)) / judged), `${realized} of ${judged} judged scenes realized their plan, ${partly} in part`, planFailures),
          criterion("beats", "The outline is followed, beat by beat", 100, "every beat marked done was done by its scene"),
          criterion("loops", "Open questions are kept alive and answered", loopFailures.length ? 83 : 100, `${loopFailures.length} of ${loops.length} questions went more than 12 scenes without moving on`, loopFailures),
          criterion("stalls", "The story moves on instead of repeating itself", 100, "no scene tells again what an earlier one told"),
          criterion("entities", "The people of the story change", 100, "3 of 3 recurring characters change over the book"),
          criterion("contradictions", "The records agree with each other", recordFailures.length ? 88 : 100, `${recordFailures.length} contradiction${recordFailures.length === 1 ? "" : "s"} between records`, recordFailures),
          criterion("pov", "The point of view holds", 100, "no scene slips out of its point of view"),
          criterion("voice", "Every scene sounds like the book", Math.round(100 * (1 - voiceFailures.length / count)), `${voiceFailures.length} of ${count} scenes read unlike the book`, voiceFailures),
          criterion("tension", "The tension rises and falls", 100, "no stretch of 8 scenes stays at one level"),
          criterion("repetition", "The prose does not repeat itself", 100 - 5 * repetition.length - 20, `${repetition.length} repetition${repetition.length === 1 ? "" : "s"}; 1.0 stock phrases per 1,000 words`, repetition),
          criterion("cost", "What the book cost", Math.round(100 * (1 - rows.filter((r) => r.revised).length / count)), `${rows.reduce((a, r) => a + r.calls, 0)} calls, ${rows.reduce((a, r) => a + r.tokens, 0).toLocaleString("en")} tokens; ${rows.filter((r) => r.revised).length} scenes revised`, costly),
        ];
  const quality = criteria.filter((c) => c.key !== "cost" && c.score !== null).map((c) => c.score as number);
  return {
    branch: "main",
    from: count ? first : 0,
    to: count ? last : 0,
    scenes: count,
    words: scenes.reduce((a, s) => a + s.word_count, 0),
    overall: quality.length ? Math.round(quality.reduce((a, b) => a + b, 0) / quality.length) : null,
    used_model: false,
    similarity: "by wording",
    criteria,
    scene_rows: rows,
    loops,
    chapters,
    characters: [],
    notes: count ? ["No meaning vectors are stored for this book: repeated scenes were compared by their wording."] : [],
  };
}

export function auditHandlers({ need, scenes }: Deps): Record<string, (a: Record<string, unknown>) => unknown> {
  return {
    audit_book: (a): AuditReport_Serialize => {
      need();
      const from = typeof a.from === "number" ? a.from : null;
      const to = typeof a.to === "number" ? a.to : null;
      if (from !== null && to !== null && from > to) {
        throw { kind: "invalid_input", message: `scene ${from} comes after scene ${to}: the range is empty` } satisfies AppError;
      }
      return auditReport(scenes(), from, to);
    },
  };
}

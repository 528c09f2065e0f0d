// The open novel's generation settings: scene length, memory actions (the engine's tools) per
// scene, how many recent scenes the agent rereads, and whether it sees the overall summary.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { GenerationSettings_Serialize } from "../../bindings";
import { call, errorText } from "../../lib/api";
import { useNovel } from "../../lib/novel";
import { useToast } from "../../lib/toast";

// What the critic costs, in the terms of its prompt (crates/novel-core/prompts/critic.j2):
// its instructions (~400 tokens), who and where (120 at most), the POV character's record
// (350) and the cast's (250), the checks' findings (~80), and the scene itself at about 4
// tokens for every 3 words; its answer is capped at 1,200 tokens (tick/critic.rs) and is
// usually a few hundred.
const CRITIC_FIXED_TOKENS = 1200;
const CRITIC_TOKENS_PER_WORD = 4 / 3;
const CRITIC_ANSWER_MAX = 1200;

/** About how many tokens the critic is sent per scene, for scenes of up to `words` words. */
export function criticTokens(words: number): number {
  return Math.round((CRITIC_FIXED_TOKENS + words * CRITIC_TOKENS_PER_WORD) / 100) * 100;
}

type NumberField = "target_words_min" | "target_words_max" | "max_tools_per_tick" | "recent_scenes_count";

const NUMBERS: { name: NumberField; label: string; min: number; max: number; hint: string }[] = [
  { name: "target_words_min", label: "Shortest scene (words)", min: 1, max: 10000, hint: "" },
  { name: "target_words_max", label: "Longest scene (words)", min: 1, max: 10000, hint: "" },
  { name: "max_tools_per_tick", label: "Memory actions per scene", min: 1, max: 20, hint: "Lookups and changes to the story's memory while planning a scene. More than 3 is allowed, with a warning." },
  { name: "recent_scenes_count", label: "Recent scenes reread", min: 0, max: 50, hint: "How many earlier scenes the agent rereads in full." },
];

export function GenerationForm({ settings }: { settings: GenerationSettings_Serialize }) {
  const { setOverview } = useNovel();
  const notify = useToast();
  const [values, setValues] = useState<Record<NumberField, string>>(() => ({
    target_words_min: String(settings.target_words_min),
    target_words_max: String(settings.target_words_max),
    max_tools_per_tick: String(settings.max_tools_per_tick),
    recent_scenes_count: String(settings.recent_scenes_count),
  }));
  const [summary, setSummary] = useState(settings.include_overall_summary);
  const [critic, setCritic] = useState(settings.critic);
  // The cost follows the longest scene as it is being typed.
  const typedLongest = Number(values.target_words_max);
  const longest = Number.isInteger(typedLongest) && typedLongest > 0 ? typedLongest : settings.target_words_max;
  const [review, setReview] = useState(settings.review_before_commit);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = (k: NumberField) => Number(values[k]);
    for (const f of NUMBERS) {
      const v = n(f.name);
      if (!Number.isInteger(v) || v < f.min || v > f.max) {
        setError(`${f.label}: enter a whole number from ${f.min} to ${f.max}.`);
        return;
      }
    }
    if (n("target_words_min") > n("target_words_max")) {
      setError("The shortest scene cannot be longer than the longest.");
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const overview = await call(
        commands.saveGenerationSettings({
          target_words_min: n("target_words_min"),
          target_words_max: n("target_words_max"),
          max_tools_per_tick: n("max_tools_per_tick"),
          recent_scenes_count: n("recent_scenes_count"),
          include_overall_summary: summary,
          critic,
          review_before_commit: review,
          // The per-section token budgets are kept as they are.
          ...(settings.context ? { context: settings.context } : {}),
        }),
      );
      setOverview(overview);
      notify("Generation settings saved.");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="card generation-form" onSubmit={submit} noValidate>
      <div className="field-grid">
        {NUMBERS.map((f) => (
          <div className="field" key={f.name}>
            <label htmlFor={`generation-${f.name}`}>{f.label}</label>
            <input
              id={`generation-${f.name}`}
              data-testid={`generation-${f.name}`}
              type="number"
              min={f.min}
              max={f.max}
              value={values[f.name]}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
            />
            {f.hint && <p className="field-hint">{f.hint}</p>}
          </div>
        ))}
      </div>
      <label className="check">
        <input
          type="checkbox"
          data-testid="generation-include_overall_summary"
          checked={summary}
          onChange={(e) => setSummary(e.target.checked)}
        />
        Give the agent the summary of the whole story so far
      </label>
      <label className="check">
        <input
          type="checkbox"
          data-testid="generation-critic"
          checked={critic}
          onChange={(e) => setCritic(e.target.checked)}
        />
        Ask a critic for a second opinion on every scene
      </label>
      <p className="field-hint check-hint" data-testid="generation-critic-cost">
        It costs one more model call per scene: about {criticTokens(longest).toLocaleString("en")} tokens sent (the
        scene of up to {longest.toLocaleString("en")} words, what the story records of who is in it, and what the checks
        found) and up to{" "}
        {CRITIC_ANSWER_MAX.toLocaleString("en")} back, usually a few hundred. It reads what no rule can: another
        character&apos;s thoughts told as fact, what your viewpoint character cannot know, an illness or a disguise
        forgotten, a described look or manner not kept; and it can overrule a check that was wrong. Without it, every
        scene is still checked against what the story records (who is alive, where everyone is, what they carry, how
        they look, their injuries and ages) at no cost.
      </p>
      <label className="check">
        <input type="checkbox" data-testid="generation-review_before_commit" checked={review} onChange={(e) => setReview(e.target.checked)} />
        Review each scene before it is saved: its plan first, then the prose and every memory change, each with a checkbox
      </label>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="generation-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" data-testid="generation-save" disabled={saving}>
          {saving ? "Saving…" : "Save settings"}
        </button>
      </div>
    </form>
  );
}

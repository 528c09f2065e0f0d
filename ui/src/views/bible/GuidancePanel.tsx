// Guidance that lasts: the author's note, the foundation (premise, themes, goal, tone, style),
// the outline of beats the planner takes in order, and the pressure on the story (clocks that
// rise toward thresholds, events bound to a scene).
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { Beat_Serialize as Beat, BibleView_Serialize, PressureClock_Serialize as PressureClock, StoryEvent } from "../../bindings";
import { call } from "../../lib/api";
import { useToast } from "../../lib/toast";
import { FormError, joinList, splitList, useAction } from "../shared/edit";

function AuthorNote({ note }: { note: string }) {
  const notify = useToast();
  const [text, setText] = useState(note);
  const action = useAction();
  const save = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      await call(commands.setAuthorNote(text));
      notify(text.trim() ? "Author's note saved: it goes into every prompt." : "Author's note cleared.");
    });
  };
  return (
    <form className="card bible-form" onSubmit={save} data-testid="author-note-form">
      <div className="field field-wide">
        <label htmlFor="author-note">Author's note</label>
        <textarea id="author-note" data-testid="author-note" rows={3} placeholder="Guidance for every scene: tone, rules, words to avoid" value={text} onChange={(e) => setText(e.target.value)} />
        <p className="field-hint">Standing guidance in every planner and writer prompt until you change it.</p>
      </div>
      <FormError error={action.error} testId="author-note-error" />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={action.busy || text === note} data-testid="author-note-save">
          Save note
        </button>
      </div>
    </form>
  );
}

function FoundationForm({ bible }: { bible: BibleView_Serialize }) {
  const notify = useToast();
  const f = bible.foundation;
  const [author, setAuthor] = useState(f?.author ?? "");
  const [premise, setPremise] = useState(f?.premise ?? "");
  const [themes, setThemes] = useState(joinList(f?.themes));
  const [goal, setGoal] = useState(bible.goal ?? "");
  const [tone, setTone] = useState(f?.tone ?? "");
  const [style, setStyle] = useState(f?.style ?? "");
  const action = useAction();
  const save = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      await call(
        commands.editFoundation({
          title: null,
          author: author.trim() === (f?.author ?? "") ? null : author,
          genre: null,
          premise,
          setting: null,
          tone,
          style,
          pov: null,
          tense: null,
          language: null,
          themes: splitList(themes),
          goal: goal.trim() === (bible.goal ?? "") ? null : goal,
        }),
      );
      notify("Foundation saved.");
    });
  };
  return (
    <form className="card bible-form" onSubmit={save} data-testid="foundation-form" noValidate>
      <div className="field field-wide">
        <label htmlFor="foundation-author">Author</label>
        <input id="foundation-author" data-testid="foundation-author" value={author} placeholder="Your name, as the title page prints it" onChange={(e) => setAuthor(e.target.value)} />
        <p className="field-hint">Exports print it on the title page and in the manuscript's page headers (Surname / Title / page).</p>
      </div>
      <div className="field field-wide">
        <label htmlFor="foundation-premise">Premise</label>
        <textarea id="foundation-premise" data-testid="foundation-premise" rows={2} value={premise} onChange={(e) => setPremise(e.target.value)} />
      </div>
      <div className="field field-wide">
        <label htmlFor="foundation-goal">Goal</label>
        <input id="foundation-goal" data-testid="foundation-goal" value={goal} onChange={(e) => setGoal(e.target.value)} />
        <p className="field-hint">Where the story is heading; the planner steers toward it.</p>
      </div>
      <div className="bible-fields">
        <div className="field">
          <label htmlFor="foundation-themes">Themes</label>
          <input id="foundation-themes" data-testid="foundation-themes" value={themes} onChange={(e) => setThemes(e.target.value)} />
          <p className="field-hint">Comma-separated.</p>
        </div>
        <div className="field">
          <label htmlFor="foundation-tone">Tone</label>
          <input id="foundation-tone" data-testid="foundation-tone" value={tone} onChange={(e) => setTone(e.target.value)} />
        </div>
      </div>
      <div className="field field-wide">
        <label htmlFor="foundation-style">Style</label>
        <textarea id="foundation-style" data-testid="foundation-style" rows={2} value={style} onChange={(e) => setStyle(e.target.value)} />
      </div>
      <FormError error={action.error} testId="foundation-error" />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="foundation-save">
          Save foundation
        </button>
      </div>
    </form>
  );
}

function BeatRow({ beat, index, count, change }: { beat: Beat; index: number; count: number; change: (c: Parameters<typeof commands.changeOutline>[0]) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(beat.text);
  const done = beat.status === "done";
  if (editing) {
    return (
      <li className="beat editing">
        <form
          className="beat-edit"
          onSubmit={(e) => {
            e.preventDefault();
            change({ op: "edit", id: beat.id, text });
            setEditing(false);
          }}
        >
          <input aria-label="Beat" data-testid="beat-edit-text" value={text} onChange={(e) => setText(e.target.value)} />
          <button type="button" className="btn btn-small btn-quiet" onClick={() => setEditing(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-small btn-primary" data-testid="beat-edit-save">
            Save
          </button>
        </form>
      </li>
    );
  }
  return (
    <li className={`beat${done ? " done" : ""}`} data-testid="beat" data-status={beat.status}>
      <label className="check beat-check">
        <input type="checkbox" checked={done} data-testid="beat-done" onChange={(e) => change({ op: "mark", id: beat.id, done: e.target.checked })} />
        <span className="beat-text">{beat.text}</span>
      </label>
      {done && beat.done_tick !== null && <span className="muted small">scene {beat.done_tick}</span>}
      <span className="beat-actions">
        <button type="button" className="icon-btn" aria-label="Move up" data-testid="beat-up" disabled={index === 0} onClick={() => change({ op: "move", id: beat.id, to: index - 1 })}>
          ↑
        </button>
        <button type="button" className="icon-btn" aria-label="Move down" data-testid="beat-down" disabled={index === count - 1} onClick={() => change({ op: "move", id: beat.id, to: index + 1 })}>
          ↓
        </button>
        <button type="button" className="btn btn-small btn-quiet" data-testid="beat-edit" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button type="button" className="btn btn-small btn-danger-quiet" data-testid="beat-remove" onClick={() => change({ op: "remove", id: beat.id })}>
          Remove
        </button>
      </span>
    </li>
  );
}

function Outline({ beats }: { beats: Beat[] }) {
  const [text, setText] = useState("");
  const action = useAction();
  const change = (c: Parameters<typeof commands.changeOutline>[0]) => void action.run(() => call(commands.changeOutline(c)));
  return (
    <div className="card bible-form" data-testid="outline">
      <h3>Outline</h3>
      <p className="muted small">Beats for the scenes ahead; the planner takes the next open one, in order.</p>
      {beats.length > 0 && (
        <ol className="beats">
          {beats.map((b, i) => (
            <BeatRow key={b.id} beat={b} index={i} count={beats.length} change={change} />
          ))}
        </ol>
      )}
      <form
        className="beat-add"
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          void action.run(() => call(commands.changeOutline({ op: "add", text, at: null }))).then((ok) => ok && setText(""));
        }}
      >
        <input aria-label="New beat" placeholder="Something that should happen in the story" data-testid="beat-new" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="btn btn-quiet" data-testid="beat-add" disabled={action.busy}>
          Add beat
        </button>
      </form>
      <FormError error={action.error} testId="outline-error" />
    </div>
  );
}

function ClockRow({ clock, remove }: { clock: PressureClock; remove: () => void }) {
  const pct = clock.max > 0 ? Math.min(100, (clock.value / clock.max) * 100) : 0;
  return (
    <li className="clock" data-testid="clock">
      <div className="clock-head">
        <strong>{clock.name}</strong>
        <span className="muted small">
          {clock.value} / {clock.max}
          {clock.per_tick > 0 && ` · +${clock.per_tick} a scene`}
        </span>
        <button type="button" className="btn btn-small btn-danger-quiet" data-testid="clock-remove" onClick={remove}>
          Remove
        </button>
      </div>
      <div className="clock-bar" role="meter" aria-valuemin={0} aria-valuemax={clock.max} aria-valuenow={clock.value} aria-label={clock.name}>
        <span style={{ width: `${pct}%` }} />
      </div>
      {clock.description && <p className="small">{clock.description}</p>}
      {clock.thresholds.length > 0 && (
        <p className="muted small">{clock.thresholds.map((t) => `at ${t.at}: ${t.note}`).join(" · ")}</p>
      )}
    </li>
  );
}

function Pressure({ clocks, events, currentTick }: { clocks: PressureClock[]; events: StoryEvent[]; currentTick: number }) {
  const [name, setName] = useState("");
  const [max, setMax] = useState("10");
  const [perTick, setPerTick] = useState("1");
  const [eventTick, setEventTick] = useState(String(currentTick + 3));
  const [eventText, setEventText] = useState("");
  const action = useAction();
  const change = (c: Parameters<typeof commands.changePressure>[0]) => action.run(() => call(commands.changePressure(c)));
  return (
    <div className="card bible-form" data-testid="pressure">
      <h3>Pressure</h3>
      <p className="muted small">Clocks rise every scene toward their thresholds; events happen at the scene you name. The planner sees both.</p>
      {clocks.length > 0 && (
        <ul className="clocks">
          {clocks.map((c) => (
            <ClockRow key={c.id} clock={c} remove={() => void change({ op: "remove_clock", id: c.id })} />
          ))}
        </ul>
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void change({ op: "add_clock", clock: { name, description: "", value: 0, max: Number(max), per_tick: Number(perTick), thresholds: [] } }).then((ok) => ok && setName(""));
        }}
      >
        <input aria-label="Clock name" placeholder="A pressure that builds, scene by scene" data-testid="clock-name" value={name} onChange={(e) => setName(e.target.value)} />
        <input aria-label="Maximum" type="number" min={1} className="narrow" data-testid="clock-max" value={max} onChange={(e) => setMax(e.target.value)} />
        <input aria-label="Rise per scene" type="number" min={0} className="narrow" data-testid="clock-per-tick" value={perTick} onChange={(e) => setPerTick(e.target.value)} />
        <button type="submit" className="btn btn-quiet" data-testid="clock-add">
          Add clock
        </button>
      </form>
      <h4>Inevitable events</h4>
      {events.length > 0 ? (
        <ul className="events">
          {events.map((ev) => (
            <li key={ev.id} className={`event${ev.status === "done" ? " done" : ""}`} data-testid="event">
              <span className="badge badge-note">scene {ev.tick}</span> {ev.description}
              <button type="button" className="btn btn-small btn-danger-quiet" data-testid="event-remove" onClick={() => void change({ op: "remove_event", id: ev.id })}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">None yet.</p>
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void change({ op: "add_event", tick: Number(eventTick), description: eventText }).then((ok) => ok && setEventText(""));
        }}
      >
        <input aria-label="At scene" type="number" min={1} className="narrow" data-testid="event-tick" value={eventTick} onChange={(e) => setEventTick(e.target.value)} />
        <input aria-label="What happens" placeholder="What happens at that scene" data-testid="event-text" value={eventText} onChange={(e) => setEventText(e.target.value)} />
        <button type="submit" className="btn btn-quiet" data-testid="event-add">
          Add event
        </button>
      </form>
      <FormError error={action.error} testId="pressure-error" />
    </div>
  );
}

export function GuidancePanel({ bible }: { bible: BibleView_Serialize }) {
  return (
    <div className="bible-columns">
      <section className="bible-section" aria-label="Author's note and foundation">
        <AuthorNote note={bible.foundation?.author_note ?? ""} />
        <FoundationForm bible={bible} />
      </section>
      <section className="bible-section" aria-label="Outline and pressure">
        <Outline beats={bible.beats} />
        <Pressure clocks={bible.clocks} events={bible.events} currentTick={bible.current_tick} />
      </section>
    </div>
  );
}

// The story so far: the book's synopsis as prose (the engine's `story_synopsis`, the text
// `novel summarize` prints), a heading per part or arc, then each chapter's title with its
// scenes — a link that opens the manuscript at the chapter's first scene — and its paragraph
// in the manuscript's reading type.
import { commands } from "../../bindings";
import type { SynopsisChapter } from "../../bindings";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { count, plural } from "../../lib/format";
import { useLoad } from "../../lib/useLoad";
import "../../styles/synopsis.css";

interface Props {
  /** Overview path and version: the synopsis is read again when the book changes. */
  loadKey: string;
  /** Opens the manuscript at a scene (absent where no manuscript can be opened). */
  onScene?: (tick: number) => void;
}

function scenes(c: SynopsisChapter): string {
  return c.first_tick === c.last_tick ? `Scene ${c.first_tick}` : `Scenes ${c.first_tick}–${c.last_tick}`;
}

export function StorySoFar({ loadKey, onScene }: Props) {
  const synopsis = useLoad(`synopsis:${loadKey}`, () => call(commands.storySynopsis()));
  if (synopsis.error !== undefined && !synopsis.data) return <LoadError error={synopsis.error} onRetry={synopsis.reload} />;
  if (!synopsis.data) return <p className="loading">Loading the story so far…</p>;
  const { arcs, scenes: total, words } = synopsis.data;
  if (arcs.length === 0) {
    return (
      <p className="muted" data-testid="synopsis-empty">
        Nothing has happened yet: the story so far is told here, chapter by chapter, once the first scene is written.
      </p>
    );
  }
  return (
    <article className="synopsis" data-testid="synopsis">
      <p className="muted small">
        {plural(total, "scene")}, {count(words)} words, told chapter by chapter from the scenes' summaries.
      </p>
      {arcs.map((arc) => (
        <section key={arc.title} className="synopsis-arc" data-testid="synopsis-arc">
          <h2>{arc.title}</h2>
          {arc.chapters.map((c) => (
            <section key={c.number} className="synopsis-chapter" data-testid="synopsis-chapter" data-first={c.first_tick}>
              <h3>
                <span>{c.title}</span>{" "}
                <button
                  type="button"
                  className="synopsis-scenes"
                  data-testid="synopsis-open"
                  disabled={!onScene}
                  onClick={() => onScene?.(c.first_tick)}
                  title={`Open scene ${c.first_tick} in the manuscript`}
                >
                  {scenes(c)}
                </button>
              </h3>
              <div className="prose reading">
                <p>{c.text}</p>
              </div>
            </section>
          ))}
        </section>
      ))}
    </article>
  );
}

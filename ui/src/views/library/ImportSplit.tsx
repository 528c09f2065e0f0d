// The split of an imported manuscript as the writer confirms it: each chapter the import found
// (and the opening pages before the first heading, left out unless brought in) with its part,
// its title to rename, its scenes' word counts and first words, and two switches: whether its
// heading starts a chapter (off: it joins the chapter before) and whether it comes in at all.
import type { ImportPreview_Serialize as ImportPreview, ShapedChapter } from "../../bindings";
import { count, plural } from "../../lib/format";
import "../../styles/import.css";

interface Props {
  preview: ImportPreview;
  shape: ShapedChapter[];
  onChange: (shape: ShapedChapter[]) => void;
}

export function ImportSplit({ preview, shape, onChange }: Props) {
  const set = (i: number, change: Partial<ShapedChapter>) => onChange(shape.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const kept = shape.filter((c) => c.included);
  const chapters = kept.filter((c, i) => i === 0 || c.starts_chapter).length;
  const scenes = preview.chapters.reduce((n, c, i) => n + (shape[i]?.included ? c.scenes.length : 0), 0);
  const parts = kept.filter((c) => c.part).length;
  // Each chapter's number as it will be, and whether it joins the chapter before.
  const rows: { number: number; joined: boolean }[] = [];
  let counted = 0;
  for (const c of shape) {
    const joined = !c.starts_chapter && counted > 0;
    if (c.included && !joined) counted += 1;
    rows.push({ number: counted, joined });
  }
  return (
    <fieldset className="import-split" data-testid="import-preview">
      <legend>How the book splits</legend>
      <p className="muted" data-testid="import-summary">
        {preview.title ? `${preview.title}${preview.author ? ` by ${preview.author}` : ""}: ` : ""}
        {parts > 0 ? `${plural(parts, "part")}, ` : ""}
        {plural(chapters, "chapter")}, {plural(scenes, "scene")}, {count(preview.words)} words in {count(preview.paragraphs)} paragraphs.
      </p>
      <ol className="import-chapters">
        {preview.chapters.map((c, i) => {
          const s = shape[i];
          if (!s) return null;
          const { number, joined } = rows[i];
          return (
            <li key={i} className={`import-chapter${s.included ? "" : " is-left-out"}${joined ? " is-joined" : ""}`} data-testid="import-chapter">
              {s.part && !joined && (
                <p className="import-part" data-testid="import-part">
                  {s.part}
                </p>
              )}
              <div className="import-chapter-head">
                <span className="import-number muted">{c.front_matter ? "Opening" : s.included && !joined ? `Chapter ${number}` : ""}</span>
                <input
                  type="text"
                  className="import-title-input"
                  aria-label={`Title of ${c.title || `chapter ${i + 1}`}`}
                  data-testid="import-chapter-title"
                  value={s.title}
                  placeholder="Untitled chapter"
                  disabled={!s.included || joined}
                  onChange={(e) => set(i, { title: e.target.value })}
                />
                <span className="muted import-words">{plural(c.words, "word")}</span>
              </div>
              <div className="import-switches">
                {c.front_matter ? (
                  <label>
                    <input type="checkbox" data-testid="import-include" checked={s.included} onChange={(e) => set(i, { included: e.target.checked })} /> Bring in
                    the opening pages (title page, dedication, contents)
                  </label>
                ) : (
                  <>
                    {i > 0 && !preview.chapters[i - 1]?.front_matter && (
                      <label title="Off: this heading is not a new chapter; its scenes join the chapter before">
                        <input type="checkbox" data-testid="import-starts" checked={s.starts_chapter} onChange={(e) => set(i, { starts_chapter: e.target.checked })} /> Starts a
                        chapter
                      </label>
                    )}
                    <label>
                      <input type="checkbox" data-testid="import-include" checked={s.included} onChange={(e) => set(i, { included: e.target.checked })} /> Import it
                    </label>
                  </>
                )}
              </div>
              <ul className="import-scenes">
                {c.scenes.map((scene, k) => (
                  <li key={k} data-testid="import-scene">
                    <span className="muted">{plural(scene.words, "word")}</span> {scene.first_words}
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}

// A memory change field by field: each as before → after, in the writer's words (the engine
// resolved ids to names and read what the memory holds now).
import type { ChangeLine } from "../../bindings";
import "../../styles/review-words.css";

export function ChangeLines({ lines }: { lines: ChangeLine[] }) {
  return (
    <ul className="change-lines" data-testid="change-lines">
      {lines.map((l, i) => (
        <li key={i} data-testid="change-line">
          <span className="change-label">{l.label}:</span>{" "}
          {l.before !== "" && (
            <>
              <del>{l.before}</del> →{" "}
            </>
          )}
          <ins>{l.after}</ins>
        </li>
      ))}
    </ul>
  );
}

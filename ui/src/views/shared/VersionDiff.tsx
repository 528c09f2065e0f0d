// Two versions of a scene side by side: the older on the left with what was removed struck
// through, the newer on the right with what was added marked. The runs come from Rust's word
// diff; the text is rendered as React text nodes, never as HTML.
import { Fragment } from "react";
import { diffCounts, sideParagraphs } from "../../lib/diff";
import type { DiffSide } from "../../lib/diff";
import { plural } from "../../lib/format";
import type { DiffRun } from "../../lib/types";

interface Props {
  runs: DiffRun[];
  oldLabel: string;
  newLabel: string;
}

function Side({ runs, side, label }: { runs: DiffRun[]; side: DiffSide; label: string }) {
  const paras = sideParagraphs(runs, side);
  return (
    <div className={`diff-side diff-${side}`} data-testid={`diff-${side}`}>
      <h4 className="diff-label">{label}</h4>
      <div className="prose reading diff-prose">
        {paras.map((pieces, i) => (
          <p key={i}>
            {pieces.map((p, j) => (
              <Fragment key={j}>
                {p.kind === "removed" ? (
                  <del className="diff-removed" data-testid="diff-removed">
                    {p.text}
                  </del>
                ) : p.kind === "added" ? (
                  <ins className="diff-added" data-testid="diff-added">
                    {p.text}
                  </ins>
                ) : (
                  p.text
                )}
              </Fragment>
            ))}
          </p>
        ))}
      </div>
    </div>
  );
}

export function VersionDiff({ runs, oldLabel, newLabel }: Props) {
  const { removed, added } = diffCounts(runs);
  return (
    <div className="version-diff" data-testid="version-diff">
      <p className="muted small diff-summary" data-testid="diff-summary">
        {removed === 0 && added === 0 ? "The two versions have the same text." : `${plural(removed, "word")} removed · ${plural(added, "word")} added`}
      </p>
      <div className="diff-columns">
        <Side runs={runs} side="old" label={oldLabel} />
        <Side runs={runs} side="new" label={newLabel} />
      </div>
    </div>
  );
}

// A scene's prose in the reader: the paragraphs `Prose` would show, as text, with the ranges
// of the raw prose that a find or a search jump highlights marked inside them. Without marks the
// prose is rendered with its emphasis and typography (`Prose`); while marks are shown the
// paragraphs are the raw text, so every marked range is exactly the text that was matched.
import { memo } from "react";
import { Prose } from "../../components/Prose";
import type { Highlight } from "../../lib/textRanges";
import { paragraphSpans } from "../../lib/textRanges";
import { MarkedText } from "./MarkedText";

export const ReaderProse = memo(function ReaderProse({ prose, highlights }: { prose: string; highlights: Highlight[] }) {
  if (highlights.length === 0) return <Prose text={prose} testId="scene-prose" className="reading" styled />;
  return (
    <div className="prose reading" data-testid="scene-prose">
      {paragraphSpans(prose).map((p, i) => {
        const inside = highlights.filter((h) => h.end > p.start && h.start < p.start + p.text.length);
        return (
          <p key={i}>
            <MarkedText text={p.text} highlights={inside} offset={p.start} />
          </p>
        );
      })}
    </div>
  );
});

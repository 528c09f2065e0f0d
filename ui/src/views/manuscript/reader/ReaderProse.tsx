// A scene's prose in the reader: the paragraphs `Prose` would show, as text, with the ranges
// of the raw prose that a find or a search jump highlights marked inside them. Without marks the
// prose is rendered with its emphasis and typography, the first mention of each character,
// place and named lore entry a quiet link to its codex page; while marks are shown the
// paragraphs are the raw text, so every marked range is exactly the text that was matched.
import { memo, useMemo } from "react";
import { Prose } from "../../../components/Prose";
import { useCodexLinks } from "../../../lib/codexLink";
import { nameFinder, useCodexNames } from "../../../lib/codexNames";
import { inlineRuns, paragraphs } from "../../../lib/prose";
import type { Highlight } from "../../../lib/textRanges";
import { paragraphSpans } from "../../../lib/textRanges";
import { LinkedRuns, linkedParagraphs } from "./LinkedRuns";
import { MarkedText } from "../../shared/MarkedText";

export const ReaderProse = memo(function ReaderProse({ prose, highlights }: { prose: string; highlights: Highlight[] }) {
  const names = useCodexNames();
  const links = useCodexLinks();
  const linked = useMemo(
    () => (names.length > 0 ? linkedParagraphs(paragraphs(prose).map(inlineRuns), nameFinder(names)) : null),
    [prose, names],
  );
  if (highlights.length === 0 && links && linked) {
    return (
      <div className="prose reading" data-testid="scene-prose">
        {linked.map((runs, i) => (
          <p key={i}>
            <LinkedRuns runs={runs} onOpen={links.openCodex} />
          </p>
        ))}
      </div>
    );
  }
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

// Untrusted text with some ranges highlighted: plain text nodes, the marked ones inside
// <mark>, never HTML. The current range is focusable so a jump can move the focus to it.
import type { Highlight } from "../../lib/textRanges";
import { pieces } from "../../lib/textRanges";

interface Props {
  text: string;
  highlights: Highlight[];
  /** Where `text` starts in the string the highlights index. */
  offset?: number;
}

export function MarkedText({ text, highlights, offset = 0 }: Props) {
  if (highlights.length === 0) return <>{text}</>;
  return (
    <>
      {pieces(text, highlights, offset).map((p, i) =>
        p.mark === "none" ? (
          p.text
        ) : (
          <mark key={i} className={p.mark === "current" ? "text-mark current" : "text-mark"} data-testid={p.mark === "current" ? "mark-current" : "mark"} tabIndex={p.mark === "current" ? -1 : undefined}>
            {p.text}
          </mark>
        ),
      )}
    </>
  );
}

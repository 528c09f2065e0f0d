// Renders untrusted prose as paragraphs of React text nodes, never HTML; `styled`, inline
// Markdown emphasis becomes <em>/<strong> and quotes and dashes are typographic (lib/prose).
import { Fragment } from "react";
import type { ReactNode } from "react";
import { inlineRuns, paragraphs } from "../lib/prose";
import type { Run } from "../lib/prose";

interface Props {
  text: string;
  testId?: string;
  className?: string;
  /** Emphasis and typography from inline Markdown; off, the paragraphs are the text as it is
   *  (prose still streaming in, where a half-written `*` would flicker). */
  styled?: boolean;
}

export function Prose({ text, testId, className = "", styled = false }: Props) {
  return (
    <div className={`prose ${className}`} data-testid={testId}>
      {paragraphs(text).map((p, i) => (
        <p key={i}>
          {styled ? <Runs runs={inlineRuns(p)} /> : p}
        </p>
      ))}
    </div>
  );
}

export function Runs({ runs }: { runs: Run[] }) {
  return (
    <>
      {runs.map((r, i) => {
        let node: ReactNode = r.text;
        if (r.em) node = <em>{node}</em>;
        if (r.strong) node = <strong>{node}</strong>;
        return <Fragment key={i}>{node}</Fragment>;
      })}
    </>
  );
}

// A paragraph's runs of text with the names of codex pages as quiet links. Which mentions are
// links (the first of each page in the scene) is decided once for the whole scene by
// `linkedParagraphs`, outside rendering; everything stays React text nodes, and a link is a
// button that opens the page.
import { Fragment } from "react";
import type { ReactNode } from "react";
import type { NameHit } from "../../../lib/codexNames";
import type { Run } from "../../../lib/prose";
import "../../../styles/codexLink.css";

/** A run of text and the names in it that are links. */
export interface LinkedRun {
  run: Run;
  hits: NameHit[];
}

/** The scene's paragraphs as runs, each with the first mention of every page in the scene. */
export function linkedParagraphs(paragraphs: Run[][], find: (text: string) => NameHit[]): LinkedRun[][] {
  const seen = new Set<string>();
  return paragraphs.map((runs) =>
    runs.map((run) => ({
      run,
      hits: find(run.text).filter((h) => {
        if (seen.has(h.id)) return false;
        seen.add(h.id);
        return true;
      }),
    })),
  );
}

export function LinkedRuns({ runs, onOpen }: { runs: LinkedRun[]; onOpen: (id: string) => void }) {
  return (
    <>
      {runs.map(({ run, hits }, i) => {
        let node: ReactNode = <Linked text={run.text} hits={hits} onOpen={onOpen} />;
        if (run.em) node = <em>{node}</em>;
        if (run.strong) node = <strong>{node}</strong>;
        return <Fragment key={i}>{node}</Fragment>;
      })}
    </>
  );
}

function Linked({ text, hits, onOpen }: { text: string; hits: NameHit[]; onOpen: (id: string) => void }) {
  if (hits.length === 0) return <>{text}</>;
  const out: ReactNode[] = [];
  let at = 0;
  for (const h of hits) {
    if (h.start > at) out.push(text.slice(at, h.start));
    out.push(
      <button key={h.start} type="button" className="codex-link" data-testid="codex-link" title={`Open ${h.title} in the codex`} onClick={() => onOpen(h.id)}>
        {text.slice(h.start, h.end)}
      </button>,
    );
    at = h.end;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}

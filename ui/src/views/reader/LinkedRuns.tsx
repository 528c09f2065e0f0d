// A paragraph's runs of text with the names of codex pages as quiet links (the first mention
// of each page in the scene: `seen` carries the pages already linked from one paragraph to the
// next). Everything stays React text nodes; a link is a button that opens the page.
import { Fragment } from "react";
import type { ReactNode } from "react";
import type { NameHit } from "../../lib/codexNames";
import type { Run } from "../../lib/prose";
import "../../styles/codexLink.css";

interface Props {
  runs: Run[];
  find: (text: string) => NameHit[];
  /** Pages linked earlier in the scene; the pages linked here are added. */
  seen: Set<string>;
  onOpen: (id: string) => void;
}

export function LinkedRuns({ runs, find, seen, onOpen }: Props) {
  return (
    <>
      {runs.map((r, i) => {
        let node: ReactNode = <Linked text={r.text} find={find} seen={seen} onOpen={onOpen} />;
        if (r.em) node = <em>{node}</em>;
        if (r.strong) node = <strong>{node}</strong>;
        return <Fragment key={i}>{node}</Fragment>;
      })}
    </>
  );
}

function Linked({ text, find, seen, onOpen }: { text: string; find: Props["find"]; seen: Set<string>; onOpen: Props["onOpen"] }) {
  const hits = find(text).filter((h) => {
    if (seen.has(h.id)) return false;
    seen.add(h.id);
    return true;
  });
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

// One scene as two branches have it, side by side, with the words that differ marked (the
// same word diff as two versions: each branch's text is a version of the scene). A branch
// that never reached the scene says so.
import { useState } from "react";
import { commands } from "../../bindings";
import { Icon } from "../../components/Icon";
import { ScenePanelFrame } from "../../components/ScenePanelFrame";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { useNovel } from "../../lib/novel";
import type { BranchScene } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { VersionDiff } from "./VersionDiff";

interface Props {
  tick: number;
  onClose: () => void;
}

/** The pair shown first: the current branch and the first other branch with this scene. */
function defaultPair(rows: BranchScene[]): [string, string] | null {
  if (rows.length < 2) return null;
  const current = rows.find((r) => r.current) ?? rows[0];
  const other = rows.find((r) => r.branch !== current.branch && r.scene) ?? rows.find((r) => r.branch !== current.branch);
  return other ? [current.branch, other.branch] : null;
}

export function BranchCompare({ tick, onClose }: Props) {
  const { overview, version } = useNovel();
  const rows = useLoad(`across:${overview?.path}:${tick}:${version}`, () => call(commands.compareBranches(tick)));
  const [chosen, setChosen] = useState<[string, string] | null>(null);
  const list = rows.data ?? [];
  const names = new Set(list.map((r) => r.branch));
  const pair = chosen && names.has(chosen[0]) && names.has(chosen[1]) ? chosen : defaultPair(list);
  const left = list.find((r) => r.branch === pair?.[0]);
  const right = list.find((r) => r.branch === pair?.[1]);
  const both = left?.scene && right?.scene ? [left.scene.id, right.scene.id] : null;
  const diff = useLoad(both ? `branch-diff:${overview?.path}:${both[0]}:${both[1]}` : null, () =>
    both ? call(commands.versionDiff(both[0], both[1])) : Promise.resolve([]),
  );

  const picker = (side: 0 | 1) => (
    <select
      data-testid={`compare-branch-${side === 0 ? "left" : "right"}`}
      aria-label={side === 0 ? "Left branch" : "Right branch"}
      value={pair?.[side] ?? ""}
      onChange={(e) => {
        const next: [string, string] = pair ? [...pair] : [e.target.value, e.target.value];
        next[side] = e.target.value;
        setChosen(next);
      }}
    >
      {list.map((r) => (
        <option key={r.branch} value={r.branch}>
          {r.branch}
          {r.current ? " (current)" : ""}
        </option>
      ))}
    </select>
  );

  const missing = (row: BranchScene | undefined) =>
    row && !row.scene ? (
      <p className="muted small" data-testid="compare-missing">
        The branch “{row.branch}” has no scene {tick}.
      </p>
    ) : null;

  return (
    <ScenePanelFrame className="compare-panel" testId="branch-compare" title={`Scene ${tick} across branches`} closeLabel="Close the comparison" onClose={onClose}>
      {rows.error !== undefined && !rows.data && <LoadError error={rows.error} onRetry={rows.reload} />}
      {rows.data && list.length < 2 && (
        <p className="muted small" data-testid="compare-single">
          This story has one branch so far. Start another from a scene’s menu (New branch from here) to compare how the story goes each way.
        </p>
      )}
      {rows.data && list.length >= 2 && (
        <>
          <div className="compare-pickers">
            {picker(0)}
            <Icon name="compare" size={16} />
            {picker(1)}
          </div>
          {missing(left)}
          {missing(right)}
          {pair && pair[0] === pair[1] ? (
            <p className="muted small">Choose two different branches.</p>
          ) : (
            diff.data &&
            left?.scene &&
            right?.scene && <VersionDiff runs={diff.data} oldLabel={`${left.branch} · ${left.scene.title}`} newLabel={`${right.branch} · ${right.scene.title}`} />
          )}
          {diff.error !== undefined && <LoadError error={diff.error} onRetry={diff.reload} />}
        </>
      )}
    </ScenePanelFrame>
  );
}

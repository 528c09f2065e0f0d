// The versions of one scene, oldest first: where each came from, when, its words and branch,
// which one the scene shows now, and Restore. Two chosen versions (older and newer) are shown
// side by side with their differences marked.
import { useState } from "react";
import { commands } from "../../bindings";
import { ScenePanelFrame } from "../../components/ScenePanelFrame";
import { LoadError } from "../../components/LoadError";
import { call, errorText } from "../../lib/api";
import { count } from "../../lib/format";
import { originLabel, shortTime } from "../../lib/history";
import { useNovel } from "../../lib/novel";
import { useToast } from "../../lib/toast";
import type { SceneVersion } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { VersionDiff } from "../shared/VersionDiff";

interface Props {
  tick: number;
  onClose: () => void;
}

/** The pair shown by default: the current version, and the one it replaced. A first draft
 *  the same tick revised is passed over (it is what the current text grew from, not what the
 *  writer had before), unless it is all there is. */
function defaultPair(versions: SceneVersion[], current: number | null): [number, number] | null {
  if (versions.length < 2) return null;
  const at = Math.max(0, versions.findIndex((v) => v.id === current));
  const newer = at > 0 ? at : versions.length - 1;
  const earlier = versions.slice(0, newer);
  const older = [...earlier].reverse().find((v) => v.origin !== "draft") ?? earlier[earlier.length - 1];
  return [older.id, versions[newer].id];
}

export function VersionsPanel({ tick, onClose }: Props) {
  const { overview, version } = useNovel();
  const notify = useToast();
  const loaded = useLoad(`versions:${overview?.path}:${tick}:${version}`, () => call(commands.sceneVersions(tick)));
  const [chosen, setChosen] = useState<{ old: number; new: number } | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const data = loaded.data;
  const versions = data?.versions ?? [];
  const fallback = data ? defaultPair(versions, data.current) : null;
  const valid = chosen && versions.some((v) => v.id === chosen.old) && versions.some((v) => v.id === chosen.new) ? chosen : null;
  const pair = valid ?? (fallback ? { old: fallback[0], new: fallback[1] } : null);
  const diff = useLoad(pair ? `diff:${overview?.path}:${pair.old}:${pair.new}` : null, () =>
    pair ? call(commands.versionDiff(pair.old, pair.new)) : Promise.resolve([]),
  );
  const number = (id: number) => versions.findIndex((v) => v.id === id) + 1;
  const label = (id: number) => {
    const v = versions.find((x) => x.id === id);
    return v ? `Version ${number(id)} · ${originLabel(v.origin)}${v.id === data?.current ? " (shown now)" : ""}` : "";
  };

  const restore = async (v: SceneVersion) => {
    setRestoring(v.id);
    setError(null);
    try {
      await call(commands.restoreVersion(v.id));
      notify(`Scene ${tick} shows version ${number(v.id)} again. The text it replaced is kept as a version too.`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setRestoring(null);
    }
  };

  return (
    <ScenePanelFrame className="versions-panel" testId="versions-panel" title={`Versions of scene ${tick}`} closeLabel="Close the versions" onClose={onClose}>
      {loaded.error !== undefined && !data && <LoadError error={loaded.error} onRetry={loaded.reload} />}
      {data && (
        <>
          <table className="versions-table">
            <thead>
              <tr>
                <th scope="col" title="Compare from this version">
                  Older
                </th>
                <th scope="col" title="Compare to this version">
                  Newer
                </th>
                <th scope="col">#</th>
                <th scope="col">How it came</th>
                <th scope="col">When</th>
                <th scope="col" className="num">
                  Words
                </th>
                <th scope="col">Branch</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {versions.map((v, i) => {
                const current = v.id === data.current;
                return (
                  <tr key={v.id} data-testid="version-row" data-origin={v.origin} data-current={current} className={current ? "current" : ""}>
                    <td>
                      <input
                        type="radio"
                        name={`old-${tick}`}
                        data-testid="diff-pick-old"
                        aria-label={`Compare from version ${i + 1}`}
                        checked={pair?.old === v.id}
                        onChange={() => setChosen({ old: v.id, new: pair?.new ?? v.id })}
                      />
                    </td>
                    <td>
                      <input
                        type="radio"
                        name={`new-${tick}`}
                        data-testid="diff-pick-new"
                        aria-label={`Compare to version ${i + 1}`}
                        checked={pair?.new === v.id}
                        onChange={() => setChosen({ old: pair?.old ?? v.id, new: v.id })}
                      />
                    </td>
                    <td className="num">{i + 1}</td>
                    <td>
                      {originLabel(v.origin)}
                      {current && (
                        <span className="badge badge-accent version-current" data-testid="version-current">
                          shown now
                        </span>
                      )}
                    </td>
                    <td className="muted">{shortTime(v.created_at)}</td>
                    <td className="num">{count(v.words)}</td>
                    <td className="muted version-branch">{v.branch}</td>
                    <td>
                      {!current && (
                        <button
                          type="button"
                          className="btn btn-quiet btn-small"
                          data-testid="restore-version"
                          disabled={restoring !== null}
                          onClick={() => void restore(v)}
                          title="Make this the scene's text again; the current text stays as a version"
                        >
                          {restoring === v.id ? "Restoring…" : "Restore"}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {error && (
            <p className="notice notice-error" role="alert">
              {error}
            </p>
          )}
          {versions.length < 2 ? (
            <p className="muted small" data-testid="versions-single">
              This scene has one version so far. Editing it, or writing it again, keeps the text you have now as a version.
            </p>
          ) : pair && pair.old === pair.new ? (
            <p className="muted small">Choose two different versions to see what changed.</p>
          ) : (
            diff.data && pair && <VersionDiff runs={diff.data} oldLabel={label(pair.old)} newLabel={label(pair.new)} />
          )}
          {diff.error !== undefined && <LoadError error={diff.error} onRetry={diff.reload} />}
        </>
      )}
    </ScenePanelFrame>
  );
}

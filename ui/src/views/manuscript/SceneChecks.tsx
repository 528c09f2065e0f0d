// "Check this scene": every check the engine runs after writing (point of view, knowledge,
// continuity against the story memory, tense, person, length, stock phrasing) on the scene as
// it stands now — after the writer's own edits too — with what to change and where.
import { commands } from "../../bindings";
import { FindingsList } from "../../components/FindingsList";
import { ScenePanelFrame } from "../../components/ScenePanelFrame";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { plural } from "../../lib/format";
import { useNovel } from "../../lib/novel";
import { useLoad } from "../../lib/useLoad";

interface Props {
  tick: number;
  onClose: () => void;
}

export function SceneChecks({ tick, onClose }: Props) {
  const { overview, version } = useNovel();
  // Keyed by the novel's version: an edit or a memory change re-runs the checks.
  const loaded = useLoad(`checks:${overview?.path}:${tick}:${version}`, () => call(commands.checkScene(tick)));
  const findings = loaded.data;
  const violations = findings?.filter((f) => f.severity === "violation").length ?? 0;
  return (
    <ScenePanelFrame className="checks-panel" testId="checks-panel" title={`Checks of scene ${tick}`} closeLabel="Close the checks" onClose={onClose}>
      {loaded.error !== undefined && !findings && <LoadError error={loaded.error} onRetry={loaded.reload} />}
      {!findings && loaded.error === undefined && <p className="muted small">Checking…</p>}
      {findings && (
        <>
          {findings.length > 0 && (
            <p className="muted small" data-testid="checks-summary" role="status">
              {violations === 0
                ? `Nothing the agent would revise; ${plural(findings.length, "note")}.`
                : violations === findings.length
                  ? `${plural(violations, "problem")} the agent would revise.`
                  : `${plural(violations, "problem")} the agent would revise, ${plural(findings.length - violations, "other note")}.`}
            </p>
          )}
          <FindingsList findings={findings} testId="scene-findings" />
        </>
      )}
    </ScenePanelFrame>
  );
}

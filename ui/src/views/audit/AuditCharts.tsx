// The audit's two charts over the book, drawn with uPlot as the Bible's charts are: open
// questions scene by scene (how many are open, and the ones raised and answered in each scene),
// and voice drift (each scene's distance from the book's own style, the scenes the audit flags
// in the warning colour, the flagging line drawn). A click on a scene opens it in the manuscript;
// a table under each chart says the same for a screen reader.
import { useMemo } from "react";
import "../shared/safeLocale";
import uPlot from "uplot";
import type { AuditReport_Serialize } from "../../bindings";
import { Plot, axes, cssVar } from "../shared/ChartsPanel";

/** Over this distance a scene is flagged (the engine's threshold, docs/audit.md "Voice drift"). */
export const VOICE_DRIFT_OVER = 3.0;

type Options = Omit<uPlot.Options, "width">;

/** Opens the scene under the cursor when the chart is clicked. */
function clickToOpen(scenes: number[], openScene: (tick: number) => void): uPlot.Hooks.Arrays["ready"] {
  return [
    (u) => {
      u.over.style.cursor = "pointer";
      u.over.addEventListener("click", () => {
        const i = u.cursor.idx;
        if (i !== null && i !== undefined && scenes[i] !== undefined) openScene(scenes[i]);
      });
    },
  ];
}

const bars = (align: -1 | 0 | 1) => uPlot.paths.bars?.({ size: [0.35, 18], align });

function loopsPlot(report: AuditReport_Serialize, openScene: (tick: number) => void): { options: Options; data: uPlot.AlignedData } {
  const rows = report.scene_rows;
  const scenes = rows.map((r) => r.scene);
  const opened = scenes.map((s) => report.loops.filter((l) => l.opened === s).length);
  const resolved = scenes.map((s) => report.loops.filter((l) => l.resolved === s).length);
  const accent = cssVar("--accent", "#36618e");
  const success = cssVar("--success", "#2f7a57");
  const warning = cssVar("--warning", "#9a6614");
  const title = (v: number | null) => (v == null ? "—" : `${v} · ${rows.find((r) => r.scene === v)?.title ?? ""}`);
  const options: Options = {
    height: 220,
    scales: { x: { time: false, range: (_u, lo, hi) => [lo - 0.6, hi + 0.6] }, y: { range: (_u, _lo, hi) => [0, Math.max(3, hi + 1)] } },
    axes: axes("Questions"),
    series: [
      { label: "Scene", value: (_u, v) => title(v) },
      { label: "Open after the scene", stroke: accent, width: 2, fill: `${accent}1f`, points: { show: true, size: 5 } },
      { label: "Raised", stroke: warning, fill: `${warning}cc`, width: 0, paths: bars(-1), points: { show: false } },
      { label: "Answered", stroke: success, fill: `${success}cc`, width: 0, paths: bars(1), points: { show: false } },
    ],
    hooks: { ready: clickToOpen(scenes, openScene) },
  };
  return { options, data: [scenes, rows.map((r) => r.open_loops), opened, resolved] };
}

function voicePlot(report: AuditReport_Serialize, flagged: Set<number>, openScene: (tick: number) => void): { options: Options; data: uPlot.AlignedData } {
  const rows = report.scene_rows;
  const scenes = rows.map((r) => r.scene);
  const accent = cssVar("--accent", "#36618e");
  const danger = cssVar("--danger", "#b0443a");
  const muted = cssVar("--muted", "#6d717a");
  const top = Math.max(VOICE_DRIFT_OVER + 1, ...rows.map((r) => r.voice_distance ?? 0)) + 0.5;
  const title = (v: number | null) => (v == null ? "—" : `${v} · ${rows.find((r) => r.scene === v)?.title ?? ""}`);
  const distance = (v: number | null) => (v == null ? "—" : v.toFixed(1));
  const options: Options = {
    height: 200,
    scales: { x: { time: false, range: (_u, lo, hi) => [lo - 0.6, hi + 0.6] }, y: { range: [0, top] } },
    axes: axes("Distance"),
    series: [
      { label: "Scene", value: (_u, v) => title(v) },
      { label: "Distance", stroke: accent, fill: `${accent}99`, width: 0, paths: bars(0), points: { show: false }, value: (_u, v) => distance(v) },
      { label: "Unlike the book", stroke: danger, fill: danger, width: 0, paths: bars(0), points: { show: false }, value: (_u, v) => distance(v) },
      { label: "Flagged over", stroke: muted, width: 1, dash: [5, 4], points: { show: false } },
    ],
    hooks: { ready: clickToOpen(scenes, openScene) },
  };
  const d = rows.map((r) => r.voice_distance);
  return {
    options,
    data: [scenes, d.map((v, i) => (flagged.has(scenes[i]) ? null : v)), d.map((v, i) => (flagged.has(scenes[i]) ? v : null)), scenes.map(() => VOICE_DRIFT_OVER)],
  };
}

export function LoopsChart({ report, openScene }: { report: AuditReport_Serialize; openScene: (tick: number) => void }) {
  // Built once per report: a new object would redraw the chart on every render.
  const { options, data } = useMemo(() => loopsPlot(report, openScene), [report, openScene]);
  return (
    <>
      <Plot options={options} data={data} testId="audit-loops-chart" />
      <table className="sr-table" data-testid="audit-chapters">
        <caption>Questions raised and answered by chapter</caption>
        <tbody>
          {report.chapters.map((c) => (
            <tr key={c.chapter}>
              <th scope="row">{c.title}</th>
              <td>
                scenes {c.first_scene}–{c.last_scene}: {c.opened} raised, {c.resolved} answered
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function VoiceChart({ report, flagged, openScene }: { report: AuditReport_Serialize; flagged: Set<number>; openScene: (tick: number) => void }) {
  const { options, data } = useMemo(() => voicePlot(report, flagged, openScene), [report, flagged, openScene]);
  return (
    <>
      <Plot options={options} data={data} testId="audit-voice-chart" />
      <table className="sr-table" data-testid="audit-voice-table">
        <caption>Distance of each scene from the book's voice</caption>
        <tbody>
          {report.scene_rows.map((r) => (
            <tr key={r.scene} data-scene={r.scene} data-flagged={flagged.has(r.scene) ? "yes" : "no"}>
              <th scope="row">Scene {r.scene}</th>
              <td>
                {r.voice_distance === null ? "too short to measure" : r.voice_distance.toFixed(1)}
                {flagged.has(r.scene) ? ", unlike the book" : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

// The story's shape: the tension of every scene as a line, and each character's emotional
// state over the scenes as a lane of points (hover shows the state). Drawn with uPlot.
import { useEffect, useMemo, useRef } from "react";
import "./safeLocale";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { StoryCharts_Serialize } from "../../bindings";
import { AXIS_FONT, axisNames } from "./axisNames";

export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

const PALETTE = ["#c2410c", "#2563eb", "#15803d", "#9333ea", "#b45309", "#0e7490", "#be123c", "#4d7c0f"];

/** A uPlot chart that follows its container's width. */
export function Plot({ options, data, testId }: { options: Omit<uPlot.Options, "width">; data: uPlot.AlignedData; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = new uPlot({ ...options, width: Math.max(320, el.clientWidth) }, data, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(320, el.clientWidth), height: options.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [options, data]);
  return <div ref={box} className="chart" data-testid={testId} />;
}

export function axes(yLabel: string, ySplits?: (number | null)[], yValues?: (u: uPlot, splits: number[]) => string[], ySize = 50): uPlot.Axis[] {
  const ink = cssVar("--muted", "#6b7280");
  const grid = { stroke: cssVar("--line", "#e5e7eb"), width: 1 };
  return [
    { label: "Scene", stroke: ink, grid, font: AXIS_FONT, values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? String(s) : "")) },
    {
      label: yLabel,
      stroke: ink,
      grid,
      font: AXIS_FONT,
      size: ySize,
      ...(ySplits ? { splits: () => ySplits.filter((s): s is number => s !== null) } : {}),
      ...(yValues ? { values: yValues } : {}),
    },
  ];
}

function tensionPlot(charts: StoryCharts_Serialize): { options: Omit<uPlot.Options, "width">; data: uPlot.AlignedData } {
  const points = charts.tension;
  const data: uPlot.AlignedData = [points.map((p) => p.tick), points.map((p) => p.tension ?? null)];
  const accent = cssVar("--accent", "#c2410c");
  const options: Omit<uPlot.Options, "width"> = {
    height: 240,
    scales: { x: { time: false }, y: { range: [0, 10] } },
    axes: axes("Tension"),
    series: [
      { label: "Scene", value: (_u, v) => (v == null ? "—" : `${v} · ${points.find((p) => p.tick === v)?.title ?? ""}`) },
      { label: "Tension", stroke: accent, width: 2, fill: `${accent}22`, points: { show: true, size: 6 }, spanGaps: true },
    ],
  };
  return { options, data };
}

export function TensionChart({ charts }: { charts: StoryCharts_Serialize }) {
  // Built once per answer: a new object would redraw the chart on every render.
  const { options, data } = useMemo(() => tensionPlot(charts), [charts]);
  return <Plot options={options} data={data} testId="tension-chart" />;
}

function emotionPlot(charts: StoryCharts_Serialize): { options: Omit<uPlot.Options, "width">; data: uPlot.AlignedData } {
  const tracks = charts.emotions;
  const ticks = [...new Set(tracks.flatMap((t) => t.points.map((p) => p.tick)))].sort((a, b) => a - b);
  const lastScene = charts.tension.length > 0 ? charts.tension[charts.tension.length - 1].tick : 1;
  // Each character is a lane (y = its row); a point where its state was set.
  const series = tracks.map((t, row) => ticks.map((tick) => (t.points.some((p) => p.tick === tick) ? tracks.length - row : null)));
  const names = axisNames(tracks.map((t) => t.name));
  const stateAt = (row: number, tick: number) => tracks[row].points.find((p) => p.tick === tick)?.state ?? "cleared";
  const options: Omit<uPlot.Options, "width"> = {
    height: Math.max(160, 60 + tracks.length * 44),
    // The same scenes as the tension chart, so the two read side by side.
    scales: { x: { time: false, range: [Math.min(ticks[0] ?? 0, 1), Math.max(ticks[ticks.length - 1] ?? 1, lastScene)] }, y: { range: [0.5, tracks.length + 0.5] } },
    axes: axes(
      "",
      tracks.map((_, i) => i + 1),
      (_u, splits) => splits.map((s) => names.labels[tracks.length - s] ?? ""),
      names.size,
    ),
    series: [
      { label: "Scene" },
      ...tracks.map((t, row) => ({
        label: t.name,
        stroke: PALETTE[row % PALETTE.length],
        width: 1,
        dash: [4, 4],
        spanGaps: true,
        points: { show: true, size: 9, fill: PALETTE[row % PALETTE.length] },
        value: (_u: uPlot, v: number | null, _s: number, idx: number | null) => (v == null || idx == null ? "—" : stateAt(row, ticks[idx])),
      })),
    ],
  };
  return { options, data: [ticks, ...series] };
}

export function EmotionChart({ charts }: { charts: StoryCharts_Serialize }) {
  const { options, data } = useMemo(() => emotionPlot(charts), [charts]);
  return <Plot options={options} data={data} testId="emotion-chart" />;
}

export default function ChartsPanel({ charts }: { charts: StoryCharts_Serialize }) {
  return (
    <div className="charts">
      <section className="card bible-section" aria-labelledby="tension-title">
        <h2 id="tension-title">Tension by scene</h2>
        {charts.tension.length === 0 ? <p className="muted">No scenes yet.</p> : <TensionChart charts={charts} />}
      </section>
      <section className="card bible-section" aria-labelledby="emotion-title">
        <h2 id="emotion-title">Emotional states</h2>
        <p className="muted small">A point wherever a character's state changed; hover to read it.</p>
        {charts.emotions.length === 0 ? (
          <p className="muted">No emotional states recorded yet.</p>
        ) : (
          <>
            <EmotionChart charts={charts} />
            <table className="emotion-table sr-table" data-testid="emotion-table">
              <caption className="sr-label">Emotional states by scene</caption>
              <tbody>
                {charts.emotions.map((t) => (
                  <tr key={t.id}>
                    <th scope="row">{t.name}</th>
                    <td>{t.points.map((p) => `scene ${p.tick}: ${p.state ?? "cleared"}`).join("; ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
    </div>
  );
}

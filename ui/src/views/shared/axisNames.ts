// Names on a chart's side axis: the axis is as wide as the longest name (measured in the
// axis's font) so none is cut at the chart's edge; a name longer than the room allowed is
// shortened with "…" (the legend and the table below the chart give it in full).

/** The axis font, set on the axis too so that what is measured is what is drawn. */
export const AXIS_FONT = "12px system-ui, sans-serif";
/** Tick length, gap and a margin on the outer side (uPlot's ticks are 10 px, its gap 5). */
const BESIDE = 10 + 5 + 8;

let context: CanvasRenderingContext2D | null = null;

function measure(text: string): number {
  context ??= document.createElement("canvas").getContext("2d");
  if (!context) return text.length * 7;
  context.font = AXIS_FONT;
  return context.measureText(text).width;
}

function shorten(name: string, room: number): string {
  if (measure(name) <= room) return name;
  let keep = name.length;
  while (keep > 1 && measure(`${name.slice(0, keep).trimEnd()}…`) > room) keep -= 1;
  return `${name.slice(0, keep).trimEnd()}…`;
}

/** The names as drawn and the axis size (in CSS pixels) that holds them, at most `most`. */
export function axisNames(names: string[], most = 240): { labels: string[]; size: number } {
  const room = most - BESIDE;
  const labels = names.map((n) => shorten(n, room));
  const widest = Math.max(0, ...labels.map(measure));
  return { labels, size: Math.ceil(widest + BESIDE) };
}

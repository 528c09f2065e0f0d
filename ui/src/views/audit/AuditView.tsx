// Audit view: the book audit (docs/audit.md) as a report card — the overall number, each
// criterion with its number, what it counts and whether it holds, each failure's scenes linked
// to the manuscript — with charts of open questions and voice drift over the book. The writer
// may audit a range of scenes (either end left blank reaches the end of the book); the report
// is asked again when the range is applied, on Refresh and whenever the novel changes, the last
// one staying on screen meanwhile.
import { useCallback, useMemo, useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { AuditReport_Serialize } from "../../bindings";
import { BranchTag } from "../../components/BranchTag";
import { EmptyState } from "../../components/EmptyState";
import { LoadError } from "../../components/LoadError";
import { call, errorText } from "../../lib/api";
import { count, plural } from "../../lib/format";
import { useNovel } from "../../lib/novel";
import { useLoad } from "../../lib/useLoad";
import { LoopsChart, VoiceChart } from "./AuditCharts";
import { ReportCard } from "./ReportCard";
import "../../styles/bible.css";
import "../../styles/audit.css";

interface Range {
  from: number | null;
  to: number | null;
}

/** A typed end of the range: blank is open, else a scene number (1 or more). */
function sceneNumber(text: string): number | null | "bad" {
  const t = text.trim();
  if (t === "") return null;
  return /^\d+$/.test(t) && Number(t) >= 1 ? Number(t) : "bad";
}

function RangeForm({ range, busy, onApply }: { range: Range; busy: boolean; onApply: (r: Range) => void }) {
  const [from, setFrom] = useState(range.from === null ? "" : String(range.from));
  const [to, setTo] = useState(range.to === null ? "" : String(range.to));
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const a = sceneNumber(from);
    const b = sceneNumber(to);
    if (a === "bad" || b === "bad") {
      setProblem("Give a scene number (1 or more), or leave it blank for the whole book.");
      return;
    }
    setProblem(null);
    onApply({ from: a, to: b });
  };
  return (
    <form className="audit-range" data-testid="audit-range" onSubmit={submit}>
      <label>
        <span className="small">From scene</span>
        <input type="number" min={1} inputMode="numeric" value={from} placeholder="first" data-testid="audit-from" onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label>
        <span className="small">To scene</span>
        <input type="number" min={1} inputMode="numeric" value={to} placeholder="last" data-testid="audit-to" onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className="btn" data-testid="audit-refresh" disabled={busy}>
        {busy ? "Auditing…" : "Refresh"}
      </button>
      {(from !== "" || to !== "") && (
        <button
          type="button"
          className="btn btn-quiet"
          data-testid="audit-whole"
          onClick={() => {
            setFrom("");
            setTo("");
            setProblem(null);
            onApply({ from: null, to: null });
          }}
        >
          Whole book
        </button>
      )}
      {problem && (
        <p className="field-error small" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

function Summary({ report }: { report: AuditReport_Serialize }) {
  const attention = report.criteria.filter((c) => c.failures.length > 0).length;
  return (
    <section className="card audit-summary" data-testid="audit-summary" aria-labelledby="audit-title">
      <div className="audit-overall" aria-label={report.overall === null ? "not judged" : `${report.overall} out of 100`}>
        <span className="audit-overall-number" data-testid="audit-overall">
          {report.overall ?? "—"}
        </span>
        <span className="muted small">out of 100</span>
      </div>
      <div>
        <h2 id="audit-title">
          The book audit <BranchTag />
        </h2>
        <p className="muted" data-testid="audit-scope">
          {report.from === report.to ? `Scene ${report.from}` : `Scenes ${report.from}–${report.to}`} · {plural(report.scenes, "scene")} · {count(report.words)} words
        </p>
        <p className="small">
          {attention === 0 ? "Every criterion holds." : `${plural(attention, "criterion", "criteria")} of ${report.criteria.length} need${attention === 1 ? "s" : ""} attention.`}{" "}
          <span className="muted">Measured on this computer; no AI model was asked.</span>
        </p>
        {report.notes.length > 0 && (
          <ul className="audit-notes small muted" data-testid="audit-notes">
            {report.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function Report({ report, openScene }: { report: AuditReport_Serialize; openScene: (tick: number) => void }) {
  // The scenes the audit itself flags for voice: the chart highlights exactly those.
  const flagged = useMemo(
    () => new Set(report.criteria.filter((c) => c.key === "voice").flatMap((c) => c.failures.map((f) => f.scenes[0]?.scene ?? 0))),
    [report],
  );
  return (
    <>
      <Summary report={report} />
      <div className="audit-body">
        <section className="card audit-card-section" aria-labelledby="audit-criteria-title">
          <h2 id="audit-criteria-title">Report card</h2>
          <ReportCard criteria={report.criteria} openScene={openScene} />
        </section>
        <div className="audit-charts">
          <section className="card" aria-labelledby="audit-loops-title">
            <h2 id="audit-loops-title">Open questions over the book</h2>
            <p className="muted small">How many questions stand open after each scene, and those raised or answered in it. Click a scene to open it.</p>
            <LoopsChart report={report} openScene={openScene} />
          </section>
          <section className="card" aria-labelledby="audit-voice-title">
            <h2 id="audit-voice-title">Voice by scene</h2>
            <p className="muted small">How far each scene's style is from the book's own: sentence length, dialogue, vocabulary, adverbs, tense and person. Scenes over the line read unlike the book.</p>
            <VoiceChart report={report} flagged={flagged} openScene={openScene} />
          </section>
        </div>
      </div>
    </>
  );
}

export function AuditView({ openScene }: { openScene: (tick: number) => void }) {
  const { overview, version } = useNovel();
  const [range, setRange] = useState<Range>({ from: null, to: null });
  const audit = useLoad(`audit:${overview?.path}:${version}:${range.from}:${range.to}`, () => call(commands.auditBook(range.from, range.to)));
  const { reload } = audit;
  const apply = useCallback(
    (r: Range) => {
      if (r.from === range.from && r.to === range.to) reload();
      else setRange(r);
    },
    [range, reload],
  );
  const ranged = range.from !== null || range.to !== null;
  const form = <RangeForm range={range} busy={audit.loading} onApply={apply} />;

  let body;
  if (audit.error !== undefined && !audit.data) body = <LoadError error={audit.error} onRetry={reload} />;
  else if (!audit.data) body = <p className="loading" data-testid="audit-loading">Reading the book…</p>;
  else if (audit.data.scenes === 0 && !ranged)
    body = <EmptyState title="Nothing to audit yet">Once the book has scenes, the audit measures it here: whether the story moves on, its people change, its records agree and its voice holds.</EmptyState>;
  else if (audit.data.scenes === 0) body = <EmptyState title="No scenes in this range">Widen the range, or audit the whole book.</EmptyState>;
  else body = <Report report={audit.data} openScene={openScene} />;

  return (
    <div className={`audit-view${audit.loading && audit.data ? " audit-stale" : ""}`} data-testid="audit-view" aria-busy={audit.loading}>
      <div className="audit-toolbar">
        {form}
        {audit.error !== undefined && audit.data && (
          <div className="notice notice-error small" role="alert" data-testid="audit-error">
            Could not audit: {errorText(audit.error)}
          </div>
        )}
      </div>
      {body}
    </div>
  );
}

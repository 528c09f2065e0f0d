// "Next prompt": what the next scene's planner will be given, section by section with its
// tokens against its budget (trimmed sections marked), and the prompt itself on demand.
import { commands } from "../../bindings";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { sectionLabel } from "../../lib/promptSections";
import { useLoad } from "../../lib/useLoad";

export function PromptPreview({ version }: { version: string }) {
  const preview = useLoad(`preview:${version}`, () => call(commands.previewNextPrompt()));
  const p = preview.data;
  if (preview.error !== undefined && !p) return <LoadError error={preview.error} onRetry={preview.reload} />;
  if (!p) return <p className="loading">Building the next prompt…</p>;
  return (
    <section className="bible-section prompt-preview" aria-labelledby="preview-title" data-testid="prompt-preview">
      <div className="section-head">
        <h2 id="preview-title">Next prompt — scene {p.tick}</h2>
        <p className="muted small" data-testid="preview-total">
          {p.prompt_tokens.toLocaleString()} tokens in all (system {p.system_tokens.toLocaleString()}, story {p.user_tokens.toLocaleString()})
        </p>
      </div>
      {p.notice && <p className="notice notice-info">{p.notice}</p>}
      <table className="sections">
        <thead>
          <tr>
            <th scope="col">Section</th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col" className="num">
              Budget
            </th>
            <th scope="col" className="bar-col">
              <span className="sr-label">Use of the budget</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.sections.map((s) => {
            const pct = s.budget > 0 ? Math.min(100, (s.tokens / s.budget) * 100) : 0;
            return (
              <tr key={s.name} data-testid="preview-section" data-name={s.name} className={s.trimmed ? "trimmed" : ""}>
                <th scope="row">
                  {sectionLabel(s.name)}
                  {s.trimmed && <span className="badge badge-warning">trimmed</span>}
                </th>
                <td className="num">{s.tokens.toLocaleString()}</td>
                <td className="num muted">{s.budget > 0 ? s.budget.toLocaleString() : "—"}</td>
                <td className="bar-col">
                  <span className="budget-bar">
                    <span style={{ width: `${pct}%` }} />
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <details className="prompt-text">
        <summary>Show the prompt</summary>
        <pre data-testid="preview-user">{p.user}</pre>
      </details>
    </section>
  );
}

// The top bar: the open novel's title and counts, the current branch (opening the branches
// panel), Replace name…, Export, the theme toggle and the shortcuts help button.
import { plural } from "../lib/format";
import type { Theme } from "../lib/theme";
import type { ExportFormat } from "../bindings";
import type { Overview } from "../lib/types";
import { Icon } from "./Icon";
import { Menu } from "./Menu";
import { ReplaceNameButton } from "../views/shared/ReplaceName";

/** The formats offered, in the order the Export menu lists them. */
export const EXPORT_FORMATS: { format: ExportFormat; label: string; hint: string }[] = [
  { format: "markdown", label: "Markdown", hint: ".md" },
  { format: "epub", label: "EPUB e-book", hint: ".epub" },
  { format: "docx", label: "Word manuscript", hint: ".docx" },
];

interface Props {
  overview: Overview | null;
  theme: Theme;
  exporting: boolean;
  onExport: (format: ExportFormat) => void;
  /** Opens the Export menu each time it changes (Ctrl+E). */
  exportSignal: number;
  onToggleTheme: () => void;
  onHelp: () => void;
  onBranches: () => void;
}

export function Header({ overview, theme, exporting, onExport, exportSignal, onToggleTheme, onHelp, onBranches }: Props) {
  return (
    <header className="app-header">
      <div className="header-title">
        <h1 data-testid="novel-title" title={overview?.path}>
          {overview ? overview.foundation.title : "Novel Agent"}
        </h1>
        <p className="header-meta" data-testid="novel-stats">
          {overview
            ? `${plural(overview.scenes, "scene")} · ${plural(overview.words, "word")}`
            : "No novel open"}
          {overview?.search_notice ? (
            <span className="header-notice" data-testid="search-notice" title={overview.search_notice}>
              {" · "}keyword search only
            </span>
          ) : null}
        </p>
      </div>
      <div className="header-actions">
        {overview && (
          <button
            type="button"
            className="btn btn-quiet branch-button"
            data-testid="branch-button"
            onClick={onBranches}
            title="Branches: switch to another version of the story, or start a new one (“what if…”)"
          >
            <Icon name="branch" />
            <span className="branch-button-label">Branch</span>
            <span className="branch-name" data-testid="current-branch">
              {overview.branch}
            </span>
          </button>
        )}
        {overview && <ReplaceNameButton disabled={false} />}
        <Menu
          label={
            <>
              <Icon name="export" /> Export
            </>
          }
          className="btn btn-quiet"
          testId="export-menu"
          disabled={!overview || exporting}
          openSignal={exportSignal}
          title={
            overview
              ? `Export the manuscript of branch “${overview.branch}” as Markdown, EPUB or Word (Ctrl+E)`
              : "Export the manuscript as Markdown, EPUB or Word (Ctrl+E)"
          }
          items={EXPORT_FORMATS.map(({ format, label, hint }) => ({
            id: `export-${format}`,
            label,
            hint,
            onSelect: () => onExport(format),
          }))}
        />
        <button
          type="button"
          className="icon-btn"
          data-testid="theme-toggle"
          onClick={onToggleTheme}
          aria-label={theme === "dark" ? "Switch to the light theme" : "Switch to the dark theme"}
          title={theme === "dark" ? "Light theme" : "Dark theme"}
        >
          <Icon name={theme === "dark" ? "sun" : "moon"} />
        </button>
        <button
          type="button"
          className="icon-btn"
          data-testid="shortcuts-help"
          onClick={onHelp}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
        >
          <Icon name="keyboard" />
        </button>
      </div>
    </header>
  );
}

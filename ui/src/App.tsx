// The app shell: providers (open novel, runs, toasts), navigation rail, header (with the
// branches panel), the current view, global shortcuts, theme, export and the shortcuts help.
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { commands } from "./bindings";
import type { ExportFormat } from "./bindings";
import { Header } from "./components/Header";
import { NavRail } from "./components/NavRail";
import { ShortcutsHelp } from "./components/ShortcutsHelp";
import { BranchesPanel } from "./views/shared/BranchesPanel";
import { EmptyState } from "./components/EmptyState";
import { ViewBoundary } from "./components/ViewBoundary";
import { call, errorText } from "./lib/api";
import { CodexLinkContext } from "./lib/codexLink";
import type { CodexTarget } from "./lib/codexLink";
import { NovelProvider, useNovel } from "./lib/novel";
import { useLastPlace } from "./lib/lastPlace";
import { useShortcuts } from "./lib/shortcuts";
import { useTheme } from "./lib/theme";
import type { Theme, ThemePreference } from "./lib/theme";
import { ToastProvider, useToast } from "./lib/toast";
import { RunProvider, useRun } from "./lib/useRun";
import { VIEWS } from "./lib/views";
import type { ViewId } from "./lib/views";
import { LibraryView } from "./views/library/LibraryView";
import type { ReaderFocus } from "./views/manuscript/ManuscriptView";

// The Library is what a launch shows; every other view (the editor, markdown, charts, the
// graph's Cytoscape) is loaded the first time it is opened, so an idle app holds only the
// Library's code (BENCHMARKS.md, "The desktop app": idle memory).
const WriteView = lazy(() => import("./views/write/WriteView").then((m) => ({ default: m.WriteView })));
const ManuscriptView = lazy(() => import("./views/manuscript/ManuscriptView").then((m) => ({ default: m.ManuscriptView })));
const TimelineView = lazy(() => import("./views/timeline/TimelineView").then((m) => ({ default: m.TimelineView })));
const LoopsView = lazy(() => import("./views/loops/LoopsView").then((m) => ({ default: m.LoopsView })));
const SettingsView = lazy(() => import("./views/settings/SettingsView").then((m) => ({ default: m.SettingsView })));
const BibleView = lazy(() => import("./views/bible/BibleView").then((m) => ({ default: m.BibleView })));
const GraphView = lazy(() => import("./views/graph/GraphView"));
const AuditView = lazy(() => import("./views/audit/AuditView").then((m) => ({ default: m.AuditView })));

export function App() {
  return (
    <ToastProvider>
      <NovelProvider>
        <RunProvider>
          <Shell />
        </RunProvider>
      </NovelProvider>
    </ToastProvider>
  );
}

function Shell() {
  const { overview, loaded } = useNovel();
  const { run, start, stop, regenerate } = useRun();
  const notify = useToast();
  const { theme, preference, setPreference, toggle } = useTheme();
  const [chosenView, setView] = useState<ViewId | null>(null);
  const [help, setHelp] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportSignal, setExportSignal] = useState(0);
  const [branchesOpen, setBranchesOpen] = useState(false);
  const [focus, setFocus] = useState<ReaderFocus | null>(null);
  const [bookSearch, setBookSearch] = useState(false);
  const [codex, setCodex] = useState<CodexTarget | null>(null);
  // Until the writer picks a view: Write when a novel is open, else the Library.
  const view: ViewId = chosenView ?? (overview ? "write" : "library");
  // A launch reopens the last novel at its last view.
  useLastPlace(view, setView);

  const running = run.status !== "idle";

  const nextScene = useCallback(
    (n = 1) => {
      if (!overview || running) return;
      setView("write");
      void start(n);
    },
    [overview, running, start],
  );

  const writeAgain = useCallback(() => {
    if (!overview || running || overview.current_tick === 0 || overview.write_again_refusal) return;
    setView("write");
    void regenerate();
  }, [overview, running, regenerate]);

  const openVersions = useCallback((tick: number) => {
    setFocus((f) => ({ tick, panel: "versions", nonce: (f?.nonce ?? 0) + 1 }));
    setView("manuscript");
  }, []);

  // A scene opened in the manuscript from the Timeline or the Loops board, its checks beside it.
  const openScene = useCallback((tick: number) => {
    setFocus((f) => ({ tick, panel: "checks", nonce: (f?.nonce ?? 0) + 1 }));
    setView("manuscript");
  }, []);

  // A codex page asked for from another view (the Graph's panel).
  const openCodex = useCallback((id: string) => {
    setCodex((c) => ({ id, nonce: (c?.nonce ?? 0) + 1 }));
    setView("bible");
  }, []);

  // A scene the codex found a name in: the manuscript scrolled to it, no panel open (the
  // reader opens a focus's panel only when it names one).
  const readScene = useCallback((tick: number) => {
    setFocus((f) => ({ tick, panel: null as unknown as ReaderFocus["panel"], nonce: (f?.nonce ?? 0) + 1 }));
    setView("manuscript");
  }, []);
  const codexLinks = useMemo(() => ({ target: codex, openCodex, readScene }), [codex, openCodex, readScene]);

  // A kept draft, opened in the editor with its checks beside it.
  const editScene = useCallback((tick: number) => {
    setFocus((f) => ({ tick, panel: "checks", nonce: (f?.nonce ?? 0) + 1, edit: true }));
    setView("manuscript");
  }, []);

  const exportManuscript = useCallback(
    async (format: ExportFormat) => {
      if (!overview || exporting) return;
      setExporting(true);
      try {
        // The shell asks where to save (its own native dialog) and writes only there.
        const written = await call(commands.exportManuscript(format));
        if (written) notify(`Manuscript (branch “${overview.branch}”) exported to ${written}`);
      } catch (e) {
        notify(`Could not export: ${errorText(e)}`, "error");
      } finally {
        setExporting(false);
      }
    },
    [overview, exporting, notify],
  );

  useShortcuts({
    view: setView,
    nextScene: () => nextScene(1),
    regenerate: writeAgain,
    stop: () => {
      if (running) void stop(false);
    },
    exportMenu: () => setExportSignal((n) => n + 1),
    searchBook: () => {
      if (!overview) return;
      setView("manuscript");
      setBookSearch(true);
    },
    toggleHelp: () => setHelp((h) => !h),
    closeHelp: () => {
      if (!help) return false;
      setHelp(false);
      return true;
    },
  });

  const needsNovel = VIEWS.find((v) => v.id === view)?.needsNovel ?? false;

  return (
    <div className="app">
      <NavRail current={view} hasNovel={Boolean(overview)} running={running} onSelect={setView} />
      <div className="app-main">
        <Header
          overview={overview}
          theme={theme}
          exporting={exporting}
          onExport={(format) => void exportManuscript(format)}
          exportSignal={exportSignal}
          onToggleTheme={toggle}
          onHelp={() => setHelp(true)}
          onBranches={() => setBranchesOpen(true)}
        />
        <main className="view" data-view={view}>
          {needsNovel && !overview ? (
            loaded ? (
              <EmptyState
                title="No novel is open"
                action={
                  <button type="button" className="btn btn-primary" onClick={() => setView("library")}>
                    Go to the Library
                  </button>
                }
              >
                Open a novel or start a new one in the Library.
              </EmptyState>
            ) : null
          ) : (
            <CodexLinkContext.Provider value={codexLinks}>
            <ViewBoundary resetKey={view}>
              <CurrentView
                view={view}
                theme={theme}
                setView={setView}
                nextScene={nextScene}
                writeAgain={writeAgain}
                openVersions={openVersions}
                editScene={editScene}
                openScene={openScene}
                focus={focus}
                bookSearch={bookSearch}
                setBookSearch={setBookSearch}
                themePreference={preference}
                setThemePreference={setPreference}
                onHelp={() => setHelp(true)}
              />
            </ViewBoundary>
            </CodexLinkContext.Provider>
          )}
        </main>
      </div>
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
      {branchesOpen && overview && <BranchesPanel onClose={() => setBranchesOpen(false)} running={running} />}
    </div>
  );
}

interface ViewProps {
  view: ViewId;
  theme: Theme;
  setView: (id: ViewId) => void;
  nextScene: (n?: number) => void;
  writeAgain: () => void;
  openVersions: (tick: number) => void;
  editScene: (tick: number) => void;
  openScene: (tick: number) => void;
  focus: ReaderFocus | null;
  bookSearch: boolean;
  setBookSearch: (open: boolean) => void;
  themePreference: ThemePreference;
  setThemePreference: (p: ThemePreference) => void;
  onHelp: () => void;
}

function CurrentView(props: ViewProps) {
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <ViewFor {...props} />
    </Suspense>
  );
}

function ViewFor({ view, theme, setView, nextScene, writeAgain, openVersions, editScene, openScene, focus, bookSearch, setBookSearch, themePreference, setThemePreference, onHelp }: ViewProps) {
  switch (view) {
    case "library":
      return <LibraryView onOpened={() => setView("write")} onStay={() => setView("library")} goSettings={() => setView("settings")} />;
    case "write":
      return (
        <WriteView onRun={nextScene} onRegenerate={writeAgain} goSettings={() => setView("settings")} openVersions={openVersions} editScene={editScene} />
      );
    case "manuscript":
      return <ManuscriptView goWrite={() => setView("write")} writeAgain={writeAgain} focus={focus} searching={bookSearch} onSearching={setBookSearch} />;
    case "graph":
      return <GraphView theme={theme} />;
    case "timeline":
      return <TimelineView onRetry={() => nextScene(1)} openScene={openScene} />;
    case "loops":
      return <LoopsView openScene={openScene} />;
    case "bible":
      return <BibleView />;
    case "audit":
      return <AuditView openScene={openScene} />;
    case "settings":
      return <SettingsView themePreference={themePreference} setThemePreference={setThemePreference} onHelp={onHelp} />;
  }
}

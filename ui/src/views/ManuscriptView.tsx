// Manuscript: every scene in order for reading, with a table of contents to jump around and
// per-scene actions: edit (after an edit, the writer may re-read the scene into the story's
// memory), the scene's versions (side-by-side diff, restore), the scene as each branch has it,
// rewind to here, a new branch from here, and writing the latest scene again. Scenes off screen
// skip layout (`content-visibility: auto`), so 300 scenes stay smooth.
import { useCallback, useEffect, useState } from "react";
import { commands } from "../bindings";
import { BranchTag } from "../components/BranchTag";
import { EmptyState } from "../components/EmptyState";
import { LoadError } from "../components/LoadError";
import { appError, call } from "../lib/api";
import { plural } from "../lib/format";
import { laterScenes } from "../lib/history";
import { useNovel } from "../lib/novel";
import { useRun } from "../lib/useRun";
import { useToast } from "../lib/toast";
import type { Scene } from "../lib/types";
import { useLoad } from "../lib/useLoad";
import { NewBranchDialog } from "./NewBranchDialog";
import { SceneArticle } from "./SceneArticle";
import type { ScenePanel } from "./SceneArticle";
import { SceneToc } from "./SceneToc";
import { MemoryProposal } from "./bible/MemoryProposal";
import "../styles/manuscript.css";

/** A scene to show with one of its panels open (from another view, e.g. after writing again). */
export interface ReaderFocus {
  tick: number;
  panel: ScenePanel;
  nonce: number;
}

interface Props {
  goWrite: () => void;
  writeAgain: () => void;
  focus: ReaderFocus | null;
}

export function ManuscriptView({ goWrite, writeAgain, focus }: Props) {
  const { overview, version } = useNovel();
  const { run } = useRun();
  const notify = useToast();
  const scenes = useLoad(`manuscript:${overview?.path}:${version}`, () => call(commands.manuscript()));
  const [editing, setEditing] = useState<number | null>(null);
  const [panel, setPanel] = useState<{ tick: number; kind: ScenePanel } | null>(focus ? { tick: focus.tick, kind: focus.panel } : null);
  const [rewinding, setRewinding] = useState<number | null>(null);
  const [forking, setForking] = useState<number | null>(null);
  const [reread, setReread] = useState<number | null>(null);
  // A saved scene shows at once; the override lasts until the reload (triggered by the
  // change event) brings a fresh list.
  const [saved, setSaved] = useState<{ base: Scene[] | undefined; scenes: Record<number, Scene> }>({
    base: undefined,
    scenes: {},
  });
  const data = scenes.data;
  const running = run.status !== "idle";

  const save = useCallback(
    async (tick: number, prose: string) => {
      const scene = await call(commands.saveScene(tick, prose));
      setSaved((s) => ({ base: data, scenes: s.base === data ? { ...s.scenes, [tick]: scene } : { [tick]: scene } }));
      setEditing(null);
      setReread(tick);
      notify(`Scene ${tick} saved. The earlier text is kept as a version.`);
    },
    [notify, data],
  );

  const togglePanel = useCallback((tick: number, kind: ScenePanel) => {
    setPanel((p) => (p?.tick === tick && p.kind === kind ? null : { tick, kind }));
  }, []);

  const jump = (tick: number) => {
    document.getElementById(`scene-${tick}`)?.scrollIntoView({ block: "start", behavior: "instant" });
  };

  // Opened from another view: show that scene with its panel (state adjusted while
  // rendering, once per request), then scroll to it once the list is there.
  const [seenFocus, setSeenFocus] = useState(focus);
  if (focus !== seenFocus) {
    setSeenFocus(focus);
    if (focus) setPanel({ tick: focus.tick, kind: focus.panel });
  }
  const loaded = data !== undefined;
  useEffect(() => {
    if (!focus || !loaded) return;
    document.getElementById(`scene-${focus.tick}`)?.scrollIntoView({ block: "start", behavior: "instant" });
  }, [focus, loaded]);

  if (scenes.error !== undefined && !scenes.data) return <LoadError error={scenes.error} onRetry={scenes.reload} />;
  if (!scenes.data) return <p className="loading">Loading the manuscript…</p>;
  if (scenes.data.length === 0) {
    return (
      <EmptyState
        title="No scenes yet — press Next scene"
        action={
          <button type="button" className="btn btn-primary" onClick={goWrite}>
            Go to Write
          </button>
        }
      >
        The manuscript fills up as the agent writes.
      </EmptyState>
    );
  }
  const overrides = saved.base === scenes.data ? saved.scenes : {};
  const list = scenes.data.map((s) => overrides[s.tick] ?? s);
  const words = list.reduce((n, s) => n + s.word_count, 0);
  const last = list[list.length - 1].tick;

  // The shell asks in a native dialog first; "no" comes back as `declined` and changes nothing.
  const rewind = async (tick: number) => {
    if (rewinding !== null) return;
    setRewinding(tick);
    try {
      const report = await call(commands.rewindTo(tick));
      setPanel(null);
      const later = laterScenes(tick + 1, last);
      notify(
        report.kept_in
          ? `Back at scene ${tick}. ${later.subject} ${later.one ? "is" : "are"} kept in the branch “${report.kept_in}”.`
          : `The story already ends at scene ${tick}.`,
        "info",
      );
    } catch (e) {
      const error = appError(e);
      if (error.kind !== "declined") notify(`Could not rewind: ${error.message}`, "error");
    } finally {
      setRewinding(null);
    }
  };

  return (
    <div className="manuscript">
      <SceneToc scenes={list} onJump={jump} />
      <div className="reader" data-testid="reader">
        <header className="reader-head">
          <h1 className="book-title">{overview?.foundation.title}</h1>
          <p className="muted">
            {plural(list.length, "scene")} · {plural(words, "word")} <BranchTag />
          </p>
        </header>
        {list.map((s) => (
          <SceneArticle
            key={s.id}
            scene={s}
            latest={s.tick === last}
            running={running || rewinding !== null}
            editing={editing === s.tick}
            panel={panel?.tick === s.tick ? panel.kind : null}
            onEdit={setEditing}
            onSave={save}
            onPanel={togglePanel}
            onRewind={(tick) => void rewind(tick)}
            onBranchFrom={setForking}
            onWriteAgain={writeAgain}
          />
        ))}
      </div>
      {forking !== null && <NewBranchDialog at={forking} onClose={() => setForking(null)} />}
      {reread !== null && <MemoryProposal tick={reread} onClose={() => setReread(null)} />}
    </div>
  );
}

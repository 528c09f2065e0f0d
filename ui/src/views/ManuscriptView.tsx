// Manuscript: every scene in order for reading, with a table of contents to jump around and
// per-scene editing; after an edit, the writer may re-read the scene into the story's memory. Scenes off screen skip layout (`content-visibility: auto`), so 300
// scenes stay smooth.
import { useCallback, useState } from "react";
import { commands } from "../bindings";
import { EmptyState } from "../components/EmptyState";
import { LoadError } from "../components/LoadError";
import { call } from "../lib/api";
import { plural } from "../lib/format";
import { useNovel } from "../lib/novel";
import { useToast } from "../lib/toast";
import type { Scene } from "../lib/types";
import { useLoad } from "../lib/useLoad";
import { SceneArticle } from "./SceneArticle";
import { SceneToc } from "./SceneToc";
import { MemoryProposal } from "./bible/MemoryProposal";
import "../styles/manuscript.css";

export function ManuscriptView({ goWrite }: { goWrite: () => void }) {
  const { overview, version } = useNovel();
  const notify = useToast();
  const scenes = useLoad(`manuscript:${overview?.path}:${version}`, () => call(commands.manuscript()));
  const [editing, setEditing] = useState<number | null>(null);
  const [reread, setReread] = useState<number | null>(null);
  // A saved scene shows at once; the override lasts until the reload (triggered by the
  // change event) brings a fresh list.
  const [saved, setSaved] = useState<{ base: Scene[] | undefined; scenes: Record<number, Scene> }>({
    base: undefined,
    scenes: {},
  });
  const data = scenes.data;

  const save = useCallback(
    async (tick: number, prose: string) => {
      const scene = await call(commands.saveScene(tick, prose));
      setSaved((s) => ({ base: data, scenes: s.base === data ? { ...s.scenes, [tick]: scene } : { [tick]: scene } }));
      setEditing(null);
      setReread(tick);
      notify(`Scene ${tick} saved.`);
    },
    [notify, data],
  );

  const jump = (tick: number) => {
    document.getElementById(`scene-${tick}`)?.scrollIntoView({ block: "start", behavior: "instant" });
  };

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

  return (
    <div className="manuscript">
      <SceneToc scenes={list} onJump={jump} />
      <div className="reader" data-testid="reader">
        <header className="reader-head">
          <h1 className="book-title">{overview?.foundation.title}</h1>
          <p className="muted">
            {plural(list.length, "scene")} · {plural(words, "word")}
          </p>
        </header>
        {list.map((s) => (
          <SceneArticle key={s.id} scene={s} editing={editing === s.tick} onEdit={setEditing} onSave={save} />
        ))}
      </div>
      {reread !== null && <MemoryProposal tick={reread} onClose={() => setReread(null)} />}
    </div>
  );
}

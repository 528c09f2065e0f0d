// Manuscript: every scene in order for reading, with a table of contents to jump around and
// per-scene actions: edit (after an edit, the writer may re-read the scene into the story's
// memory), the scene's versions (side-by-side diff, restore), the scene as each branch has it,
// rewind to here, a new branch from here, and writing the latest scene again. Ctrl+F finds in
// the manuscript's text (next/previous); the book search (Ctrl+Shift+F, anywhere in an open
// novel) jumps to a passage, scrolled into view, highlighted and focused. Scenes off screen
// skip layout (`content-visibility: auto`), so 300 scenes stay smooth. The writer shapes the
// book here too: "Add a scene here" between scenes (written by hand in the prose editor, or by
// the agent from a note), and
// from a scene's menu or the contents (drag, or Move up/down) move, split, merge, rename and
// delete scenes and chapters; each change says what it did in a toast with Undo, and a scene
// whose text is new to the memory is offered for a re-read.
import { Fragment, useCallback, useEffect, useMemo, useState } from "react";
import { commands } from "../../bindings";
import type { Place, SceneChange_Deserialize as SceneChange, Shaped_Serialize as Shaped } from "../../bindings";
import { BranchTag } from "../../components/BranchTag";
import { EmptyState } from "../../components/EmptyState";
import { Icon } from "../../components/Icon";
import { LoadError } from "../../components/LoadError";
import { appError, call, errorText } from "../../lib/api";
import { plural } from "../../lib/format";
import { laterScenes } from "../../lib/history";
import { useNovel } from "../../lib/novel";
import { useRun } from "../../lib/useRun";
import { useToast } from "../../lib/toast";
import type { Scene } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { codePointIndex, findAll, fromCodePoints } from "../../lib/textRanges";
import type { Highlight, TextRange } from "../../lib/textRanges";
import { NewBranchDialog } from "../shared/NewBranchDialog";
import { SceneArticle } from "./SceneArticle";
import type { ScenePanel } from "./SceneArticle";
import { SceneToc } from "./SceneToc";
import { AddSceneHere } from "./AddSceneHere";
import { placeAfter } from "../../lib/shape";
import type { Chapter } from "./SceneToc";
import { MemoryProposal } from "./MemoryProposal";
import { BookSearch } from "./reader/BookSearch";
import type { BookHit } from "./reader/BookSearch";
import { FindBar } from "./reader/FindBar";
import "../../styles/manuscript.css";

/** A scene to show with one of its panels open (from another view, e.g. after writing again). */
export interface ReaderFocus {
  tick: number;
  panel: ScenePanel;
  nonce: number;
  /** Open the scene in the editor too (a draft kept to be edited). */
  edit?: boolean;
}

interface Props {
  goWrite: () => void;
  writeAgain: () => void;
  focus: ReaderFocus | null;
  /** Whether the book search is open (Ctrl+Shift+F opens it from any view). */
  searching: boolean;
  onSearching: (open: boolean) => void;
}

const NO_HIGHLIGHTS: Highlight[] = [];

/** The nonce of the last focus that opened the editor: a request to edit opens it once, not
 *  again each time the manuscript is shown with the same focus. */
let editedNonce: number | null = null;

function editorFor(focus: ReaderFocus | null): number | null {
  return focus?.edit && focus.nonce !== editedNonce ? focus.tick : null;
}

/** Where a search hit's passage is in `prose`: its first marked word at or after the passage's
 *  start, else the paragraph the passage starts with; null when the prose no longer has it. */
export function passageRange(prose: string, hit: BookHit): TextRange | null {
  const from = hit.offset === null ? 0 : codePointIndex(prose, hit.offset);
  const words = fromCodePoints(hit.snippet, hit.marks).map((r) => hit.snippet.slice(r.start, r.end));
  const found = words
    .flatMap((w) => findAll(prose.slice(from), w).slice(0, 1))
    .sort((a, b) => a.start - b.start)[0];
  if (found) return { start: from + found.start, end: from + found.end };
  if (hit.offset === null) return null;
  const blank = prose.slice(from).search(/\n\s*\n/);
  return { start: from, end: blank < 0 ? prose.length : from + blank };
}

export function ManuscriptView({ goWrite, writeAgain, focus, searching, onSearching }: Props) {
  const { overview, version } = useNovel();
  const { run } = useRun();
  const notify = useToast();
  const scenes = useLoad(`manuscript:${overview?.path}:${version}`, () => call(commands.manuscript()));
  const contents = useLoad(`contents:${overview?.path}:${version}`, () => call(commands.bookContents()));
  const [editing, setEditing] = useState<number | null>(() => editorFor(focus));
  // Marked once shown (in an effect: rendering stays pure, as React may render twice).
  useEffect(() => {
    if (focus?.edit) editedNonce = focus.nonce;
  }, [focus]);
  const [panel, setPanel] = useState<{ tick: number; kind: ScenePanel } | null>(focus ? { tick: focus.tick, kind: focus.panel } : null);
  const [rewinding, setRewinding] = useState<number | null>(null);
  const [forking, setForking] = useState<number | null>(null);
  const [reread, setReread] = useState<number | null>(null);
  // Where the writer is adding a scene by hand: after scene `after` (0: before the first).
  const [adding, setAdding] = useState<{ after: number; place: Place } | null>(null);
  // The scene a shaping change left to show, scrolled to once the manuscript reloads.
  const [shown, setShown] = useState<number | null>(null);
  // A saved scene shows at once; the override lasts until the reload (triggered by the
  // change event) brings a fresh list.
  const [saved, setSaved] = useState<{ base: Scene[] | undefined; scenes: Record<number, Scene> }>({
    base: undefined,
    scenes: {},
  });
  const data = scenes.data;
  const running = run.status !== "idle";
  const [find, setFind] = useState<{ open: boolean; query: string; index: number; signal: number }>({
    open: false,
    query: "",
    index: 0,
    signal: 0,
  });
  // The passage a search jumped to; `nonce` scrolls to it again on a repeated jump.
  const [passage, setPassage] = useState<{ tick: number; range: TextRange; nonce: number } | null>(null);

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

  const undo = useCallback(async () => {
    try {
      const undone = await call(commands.undoChange());
      notify(`Undone: ${undone.label}.`, "info");
    } catch (e) {
      notify(`Could not undo: ${errorText(e)}`, "error");
    }
  }, [notify]);

  // One shaping change: said in a toast with Undo; the scene it leaves is shown, and a scene
  // whose text is new to the memory is offered for a re-read. Errors reach the caller's form.
  const afterShape = useCallback(
    (shaped: Shaped) => {
      setEditing(null);
      setPanel(null);
      setAdding(null);
      const said = shaped.label.charAt(0).toUpperCase() + shaped.label.slice(1);
      notify(`${said}.`, "success", { label: "Undo", run: () => void undo() });
      if (shaped.reread.length > 0) setReread(shaped.reread[0]);
      setShown(shaped.scene);
    },
    [notify, undo],
  );
  const shape = useCallback(async (change: SceneChange) => afterShape(await call(commands.shapeBook(change))), [afterShape]);
  const shapeOrSay = useCallback(
    (change: SceneChange) => {
      shape(change).catch((e: unknown) => notify(errorText(e), "error"));
    },
    [shape, notify],
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
    const tick = editorFor(focus);
    if (tick !== null) setEditing(tick);
  }
  const loaded = data !== undefined;
  const list = useMemo(() => {
    const overrides = saved.base === data ? saved.scenes : {};
    return (data ?? []).map((s) => overrides[s.tick] ?? s);
  }, [data, saved]);

  const chapterStarts = useMemo(() => new Map((contents.data ?? []).map((c) => [c.first_tick, c])), [contents.data]);

  const matches = useMemo(
    () => (find.open ? list.flatMap((s) => findAll(s.prose, find.query).map((r) => ({ tick: s.tick, ...r }))) : []),
    [list, find.open, find.query],
  );
  const currentMatch = matches.length > 0 ? Math.min(find.index, matches.length - 1) : -1;
  const highlights = useMemo(() => {
    const byTick = new Map<number, Highlight[]>();
    if (find.open) {
      matches.forEach((m, i) => {
        byTick.set(m.tick, [...(byTick.get(m.tick) ?? []), { start: m.start, end: m.end, current: i === currentMatch }]);
      });
    } else if (passage) {
      byTick.set(passage.tick, [{ ...passage.range, current: true }]);
    }
    return byTick;
  }, [find.open, matches, currentMatch, passage]);

  // Ctrl+F (not Ctrl+Shift+F: that is the book search) opens the find bar, or refocuses it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && (e.key === "f" || e.key === "F")) {
        e.preventDefault();
        setFind((f) => ({ ...f, open: true, signal: f.signal + 1 }));
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // The current find match or the passage jumped to: in view (and, for a jump, focused).
  const findTarget = find.open && currentMatch >= 0 ? `${matches[currentMatch].tick}:${matches[currentMatch].start}` : null;
  useEffect(() => {
    if (findTarget === null) return;
    document.querySelector(".reader [data-testid=mark-current]")?.scrollIntoView({ block: "center", behavior: "instant" });
  }, [findTarget]);
  useEffect(() => {
    if (!passage) return;
    const mark = document.querySelector<HTMLElement>(".reader [data-testid=mark-current]");
    if (mark) {
      mark.scrollIntoView({ block: "center", behavior: "instant" });
      mark.focus({ preventScroll: true });
    } else {
      document.getElementById(`scene-${passage.tick}`)?.scrollIntoView({ block: "start", behavior: "instant" });
    }
  }, [passage]);

  const jumpTo = useCallback(
    (hit: BookHit) => {
      onSearching(false);
      setFind((f) => ({ ...f, open: false }));
      const scene = list.find((s) => s.tick === hit.tick);
      const range = scene ? passageRange(scene.prose, hit) : null;
      setPassage((p) => ({ tick: hit.tick, range: range ?? { start: 0, end: 0 }, nonce: (p?.nonce ?? 0) + 1 }));
    },
    [list, onSearching],
  );
  useEffect(() => {
    if (shown === null || !loaded) return;
    document.getElementById(`scene-${shown}`)?.scrollIntoView({ block: "start", behavior: "instant" });
  }, [shown, loaded, data]);
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
  const words = list.reduce((n, s) => n + s.word_count, 0);
  const last = list[list.length - 1].tick;

  // Between two scenes: "Add a scene here", or the form to write it.
  const addPoint = (after: number, place: Place) =>
    adding?.after === after ? (
      <AddSceneHere
        key={`new-${after}`}
        number={after + 1}
        place={place}
        atEnd={after === last}
        onAdd={(title, prose) => shape({ change: "add", place, title, prose })}
        onWritten={afterShape}
        onCancel={() => setAdding(null)}
        onAskAgent={goWrite}
      />
    ) : (
      <div className="add-here">
        <button type="button" className="btn btn-quiet btn-small" data-testid="add-scene-here" data-after={after} onClick={() => setAdding({ after, place })}>
          <Icon name="plus" size={14} /> Add a scene here
        </button>
      </div>
    );

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
      <SceneToc scenes={list} chapters={contents.data} onJump={jump} running={running} onShape={shapeOrSay} />
      <div className="reader" data-testid="reader" tabIndex={-1}>
        {find.open && (
          <FindBar
            query={find.query}
            onQuery={(query) => setFind((f) => ({ ...f, query, index: 0 }))}
            count={matches.length}
            index={Math.max(currentMatch, 0)}
            onStep={(by) => setFind((f) => ({ ...f, index: (Math.max(currentMatch, 0) + by + matches.length) % Math.max(matches.length, 1) }))}
            onClose={() => setFind((f) => ({ ...f, open: false }))}
            focusSignal={find.signal}
          />
        )}
        <header className="reader-head">
          <h1 className="book-title">{overview?.foundation.title}</h1>
          <p className="muted">
            {plural(list.length, "scene")} · {plural(words, "word")} <BranchTag />
          </p>
          <div className="reader-tools">
            <button type="button" className="btn btn-quiet btn-small" data-testid="open-book-search" onClick={() => onSearching(true)} title="Search the book by words or meaning (Ctrl+Shift+F)">
              <Icon name="search" size={15} /> Search the book
            </button>
            <button
              type="button"
              className="btn btn-quiet btn-small"
              data-testid="open-find"
              onClick={() => setFind((f) => ({ ...f, open: true, signal: f.signal + 1 }))}
              title="Find in the manuscript (Ctrl+F)"
            >
              Find <kbd>Ctrl</kbd>+<kbd>F</kbd>
            </button>
          </div>
        </header>
        {/* Where a new scene goes depends on the chapters: offered once they are loaded. */}
        {!running && contents.data && addPoint(0, { kind: "before", at: list[0].tick })}
        {list.map((s) => {
          const opens = chapterStarts.get(s.tick);
          return (
            <Fragment key={s.id}>
              {opens && <ChapterHeading chapter={opens} />}
              <SceneArticle
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
                highlights={highlights.get(s.tick) ?? NO_HIGHLIGHTS}
                chapters={contents.data}
                last={last}
                onShape={shape}
              />
              {!running && contents.data && addPoint(s.tick, placeAfter(s.tick, contents.data))}
            </Fragment>
          );
        })}
      </div>
      {searching && <BookSearch meaningOff={overview?.search_notice ?? null} onJump={jumpTo} onClose={() => onSearching(false)} />}
      {forking !== null && <NewBranchDialog at={forking} onClose={() => setForking(null)} />}
      {reread !== null && <MemoryProposal tick={reread} onClose={() => setReread(null)} />}
    </div>
  );
}

/** The heading a chapter opens with in the reader (and its part's, when it opens one). */
function ChapterHeading({ chapter }: { chapter: Chapter }) {
  return (
    <header className="chapter-head" data-testid="chapter-heading" data-chapter={chapter.number}>
      {chapter.part_title && <p className="chapter-part">{chapter.part_title}</p>}
      <p className="eyebrow">Chapter {chapter.number}</p>
      <h2 className="chapter-title">{chapter.title || `Chapter ${chapter.number}`}</h2>
    </header>
  );
}

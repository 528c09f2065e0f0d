// The mocked reader extras. The contents (`book_contents`): chapters of three scenes, the first
// opening a part, every other one with a proposed title. The book search (`search_book`): every paragraph of the scenes that holds a word of the
// query, as the engine reports it (chapter, scene, snippet with the words marked in code points,
// the passage's offset in code points); by meaning, each scene's opening paragraph. Shaping
// (`shape_book`, `undo_change`): scenes added, moved, split, merged, renamed and deleted, and
// chapters moved and deleted, renumbered by place as the engine does, each undoable; a scene the
// agent writes at a place from a note (`write_scene_at`).
import type { AppError, BookHit_Serialize, ChangeReason, ChapterView_Serialize, Mark, Place, SceneChange_Deserialize, SceneView_Serialize, Shaped_Serialize } from "../../src/bindings";

const CHAPTER_TITLES = ["The Quay", "Under the Salt Gate", "Storm Bells", "Ledgers"];
const PER_CHAPTER = 3;

interface Deps {
  need: () => void;
  /** Tells the app the novel changed (every view reloads). */
  changed: (reason: ChangeReason) => unknown;
  scenes: () => SceneView_Serialize[];
  /** Replaces the scenes (a shaping change). */
  setScenes?: (next: SceneView_Serialize[]) => void;
  /** Why searching by meaning is off, or null. */
  meaningOff: () => string | null;
}

const codePoints = (s: string) => Array.from(s).length;

function spans(prose: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let from = 0;
  for (const part of prose.split(/(\n\s*\n)/)) {
    if (!/^\n\s*\n$/.test(part) && part.trim()) out.push({ text: part.trim(), start: from + (part.length - part.trimStart().length) });
    from += part.length;
  }
  return out;
}

function marks(text: string, words: string[]): Mark[] {
  const out: Mark[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0].toLowerCase();
    if (words.some((q) => w === q || w.startsWith(q))) out.push({ start: codePoints(text.slice(0, m.index)), len: codePoints(m[0]) });
  }
  return out;
}

/** Where each chapter starts, with its title and part heading, once the writer edited them. */
interface Start {
  first: number;
  title: string;
  proposed: boolean;
  part: string | null;
}

export function readerHandlers({ need, changed, scenes, setScenes, meaningOff }: Deps): Record<string, (a: Record<string, unknown>) => unknown> {
  // Chapters of PER_CHAPTER scenes until the writer edits them (then the edited layout holds).
  let edited: Start[] | null = null;
  const layout = (): Start[] =>
    edited ??
    scenes()
      .filter((s) => (s.tick - 1) % PER_CHAPTER === 0)
      .map((s) => {
        const number = Math.ceil(s.tick / PER_CHAPTER);
        return { first: s.tick, title: CHAPTER_TITLES[(number - 1) % CHAPTER_TITLES.length], proposed: number % 2 === 0, part: number === 1 ? "Part One: Low Water" : null };
      });
  const contents = (): ChapterView_Serialize[] => {
    const starts = layout();
    return starts.map((start, i) => {
      const end = starts[i + 1]?.first ?? Infinity;
      const inside = scenes().filter((s) => s.tick >= start.first && s.tick < end);
      return {
        number: i + 1,
        title: start.title,
        part_title: start.part,
        proposed: start.proposed,
        first_tick: start.first,
        last_tick: inside[inside.length - 1]?.tick ?? start.first,
        words: inside.reduce((n, s) => n + s.word_count, 0),
        scenes: inside.map((s) => ({ tick: s.tick, title: s.title, words: s.word_count })),
      };
    });
  };
  const refuse = (message: string): never => {
    throw { kind: "invalid_input", message } satisfies AppError;
  };
  // Shaping: the states before each change, for undo.
  const undoStack: { scenes: SceneView_Serialize[]; edited: Start[] | null; label: string }[] = [];
  let minted = 100;
  const words = (prose: string) => prose.split(/\s+/).filter(Boolean).length;
  /** The index in the book `place` points at (numbers as before the change). */
  const indexOf = (place: Place, list: SceneView_Serialize[]): number => {
    if (place.kind === "before") {
      const i = list.findIndex((x) => x.tick === place.at);
      if (i < 0) throw { kind: "not_found", message: `There is no scene ${place.at}.` } satisfies AppError;
      return i;
    }
    const chapter = contents()[place.at - 1];
    if (!chapter) throw { kind: "not_found", message: `There is no chapter ${place.at}.` } satisfies AppError;
    return list.findIndex((x) => x.tick === chapter.last_tick) + 1;
  };
  const shape = (c: SceneChange_Deserialize): Shaped_Serialize => {
    const before = scenes();
    let list = [...before];
    let label = "";
    let show: string | null = null;
    const reread: string[] = [];
    const at = (tick: number) => {
      const i = list.findIndex((x) => x.tick === tick);
      if (i < 0) throw { kind: "not_found", message: `There is no scene ${tick}.` } satisfies AppError;
      return i;
    };
    if (c.change === "add") {
      if (!c.title.trim()) refuse("A scene needs a title; write a few words.");
      if (!c.prose.trim()) refuse("A scene cannot be empty; write some prose.");
      const sc = { ...before[0], id: `S${minted++}`, title: c.title.trim(), prose: c.prose.trim(), word_count: words(c.prose), pov: null, location: null, summary: [], tension: null };
      const i = indexOf(c.place, list);
      list.splice(i, 0, sc);
      label = `scene ${i + 1} added`;
      show = sc.id;
      reread.push(sc.id);
    } else if (c.change === "move") {
      const from = at(c.scene);
      const sc = list[from];
      const place = c.place;
      let anchor = -1;
      if (place.kind === "before") {
        const target = before.find((x) => x.tick === place.at);
        if (!target) throw { kind: "not_found", message: `There is no scene ${place.at}.` } satisfies AppError;
        list.splice(from, 1);
        anchor = list.findIndex((x) => x.id === target.id);
      } else {
        const chapter = contents()[place.at - 1];
        if (!chapter) throw { kind: "not_found", message: `There is no chapter ${place.at}.` } satisfies AppError;
        const lastOne = before.find((x) => x.tick === chapter.last_tick)!;
        list.splice(from, 1);
        anchor = lastOne.id === sc.id ? from : list.findIndex((x) => x.id === lastOne.id) + 1;
      }
      list.splice(anchor < 0 ? from : anchor, 0, sc);
      if (anchor < 0 || list.every((x, i) => x.id === before[i].id)) refuse("The scene is already there.");
      label = `scene ${c.scene} moved to ${list.indexOf(sc) + 1}`;
      show = sc.id;
    } else if (c.change === "split") {
      const i = at(c.scene);
      const paras = list[i].prose.split("\n\n").filter((p) => p.trim());
      if (c.after_paragraph < 1 || c.after_paragraph >= paras.length) refuse(`Scene ${c.scene} has ${paras.length} paragraph(s); split it after one of paragraphs 1–${paras.length - 1}.`);
      const head = paras.slice(0, c.after_paragraph).join("\n\n");
      const tail = paras.slice(c.after_paragraph).join("\n\n");
      const rest = { ...list[i], id: `S${minted++}`, title: `${list[i].title} (continued)`, prose: tail, word_count: words(tail) };
      list[i] = { ...list[i], prose: head, word_count: words(head) };
      list.splice(i + 1, 0, rest);
      label = `scene ${c.scene} split`;
      show = list[i].id;
      reread.push(list[i].id, rest.id);
    } else if (c.change === "split_at") {
      // The editor's text cut at a code point, as the engine does.
      const i = at(c.scene);
      const chars = Array.from(c.prose);
      const head = chars.slice(0, c.at).join("").trim();
      const tail = chars.slice(c.at).join("").trim();
      if (!head || !tail) refuse("Split inside the scene's text, not before its first word or after its last.");
      const rest = { ...list[i], id: `S${minted++}`, title: `${list[i].title} (continued)`, prose: tail, word_count: words(tail) };
      list[i] = { ...list[i], prose: head, word_count: words(head) };
      list.splice(i + 1, 0, rest);
      label = `scene ${c.scene} split`;
      show = list[i].id;
      reread.push(list[i].id, rest.id);
    } else if (c.change === "merge") {
      const i = at(c.scene);
      if (!list[i + 1]) refuse(`Scene ${c.scene} is the last one; there is no next scene to merge it with.`);
      const prose = `${list[i].prose}\n\n${list[i + 1].prose}`;
      list[i] = { ...list[i], prose, word_count: words(prose) };
      list.splice(i + 1, 1);
      label = `scenes ${c.scene} and ${c.scene + 1} merged`;
      show = list[i].id;
      reread.push(list[i].id);
    } else if (c.change === "rename") {
      const i = at(c.scene);
      if (!c.title.trim()) refuse("A scene needs a title; write a few words.");
      list[i] = { ...list[i], title: c.title.trim() };
      label = `scene ${c.scene} renamed`;
      show = list[i].id;
    } else if (c.change === "delete") {
      list.splice(at(c.scene), 1);
      label = `scene ${c.scene} deleted`;
    } else if (c.change === "delete_chapter") {
      const chapter = contents()[c.chapter - 1];
      if (!chapter) throw { kind: "not_found", message: `There is no chapter ${c.chapter}.` } satisfies AppError;
      list = list.filter((x) => x.tick < chapter.first_tick || x.tick > chapter.last_tick);
      label = `chapter ${c.chapter} deleted`;
    } else if (c.change === "move_chapter") {
      const all = contents();
      const chapter = all[c.chapter - 1];
      const moving = list.filter((x) => x.tick >= chapter.first_tick && x.tick <= chapter.last_tick);
      list = list.filter((x) => !moving.includes(x));
      const target = c.before ? list.findIndex((x) => x.tick === all[c.before! - 1].first_tick) : list.length;
      list.splice(target, 0, ...moving);
      label = `chapter ${c.chapter} moved`;
      show = moving[0]?.id ?? null;
    }
    undoStack.push({ scenes: before, edited: edited && edited.map((x) => ({ ...x })), label });
    list = list.map((x, i) => ({ ...x, tick: i + 1 }));
    setScenes?.(list);
    void changed("scene_edited");
    const tickOf = (id: string | null) => list.find((x) => x.id === id)?.tick ?? null;
    return { label, scene: tickOf(show), reread: reread.map((id) => tickOf(id) ?? 0), scenes: list.length };
  };
  return {
    shape_book: (a): Shaped_Serialize => {
      need();
      return shape(a.change as SceneChange_Deserialize);
    },
    // The agent's scene from a note: a moment's wait (the progress shows), then an added scene
    // titled from the note; `errorsOnce.write_scene_at` makes it fail.
    write_scene_at: async (a): Promise<Shaped_Serialize> => {
      need();
      const note = String(a.note).trim();
      if (!note) refuse("Tell the agent what happens in the scene: write a note.");
      await new Promise((r) => setTimeout(r, 400));
      const title = note.split(/[.!?]/)[0].split(/\s+/).slice(0, 10).join(" ");
      const shaped = shape({ change: "add", place: a.place as Place, title, prose: `The agent wrote this from your note.\n\n${note}` });
      const label = shaped.label.replace("added", "written from your note");
      undoStack[undoStack.length - 1].label = label;
      return { ...shaped, label };
    },
    undo_change: () => {
      need();
      const last = undoStack.pop();
      if (!last) refuse("There is nothing to undo: no change of yours is the latest one.");
      setScenes?.(last!.scenes);
      edited = last!.edited;
      void changed("scene_edited");
      return { label: last!.label, scenes: last!.scenes.length };
    },
    book_contents: (): ChapterView_Serialize[] => {
      need();
      return contents();
    },
    change_chapter: (a): ChapterView_Serialize[] => {
      need();
      const c = a.change as { change: string; chapter: number; title?: string | null; at_tick?: number };
      const starts = layout().map((x) => ({ ...x }));
      const at = c.chapter - 1;
      if (!starts[at]) throw { kind: "not_found", message: `There is no chapter ${c.chapter}.` } satisfies AppError;
      if (c.change === "rename") {
        if (!c.title?.trim()) refuse("A chapter needs a title; write a few words.");
        starts[at] = { ...starts[at], title: String(c.title).trim(), proposed: false };
      } else if (c.change === "split") {
        const tick = Number(c.at_tick);
        const end = starts[at + 1]?.first ?? Infinity;
        if (!(tick > starts[at].first && tick < end)) refuse(`Chapter ${c.chapter} cannot be split before scene ${tick}.`);
        starts.splice(at + 1, 0, { first: tick, title: `From scene ${tick}`, proposed: true, part: null });
      } else if (c.change === "merge") {
        if (!starts[at + 1]) refuse(`Chapter ${c.chapter} is the last one; there is no next chapter to merge it with.`);
        starts.splice(at + 1, 1);
      } else if (c.change === "part") {
        starts[at] = { ...starts[at], part: c.title?.trim() ? c.title.trim() : null };
      }
      edited = starts;
      void changed("scene_edited");
      return contents();
    },
    search_book: (a) => {
      need();
      const query = String(a.query).trim();
      if (!query) throw { kind: "invalid_input", message: "Type a word or a phrase to search for." } satisfies AppError;
      const off = meaningOff();
      if (a.mode === "meaning" && off) throw { kind: "invalid_input", message: `Searching by meaning needs the local embedding model (${off}). Search by words instead.` } satisfies AppError;
      const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
      const hits: BookHit_Serialize[] = [];
      for (const scene of scenes()) {
        const paragraphs = spans(scene.prose);
        const found = a.mode === "meaning" ? paragraphs.slice(0, 1) : paragraphs.filter((p) => marks(p.text, words).length > 0);
        for (const p of found) {
          hits.push({
            scene_id: scene.id,
            tick: scene.tick,
            scene_title: scene.title,
            chapter: Math.ceil(scene.tick / 3),
            chapter_title: `Chapter ${Math.ceil(scene.tick / 3)}`,
            snippet: p.text,
            marks: marks(p.text, words),
            offset: codePoints(scene.prose.slice(0, p.start)),
            by_words: a.mode !== "meaning",
            score: 1 / (hits.length + 1),
          });
        }
      }
      return hits.slice(0, Number(a.limit) || 30);
    },
  };
}

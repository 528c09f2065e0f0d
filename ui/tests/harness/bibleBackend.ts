// The mocked story-bible commands for UI tests: an in-memory foundation, goal, outline,
// pressure and lore that the forms change, a next-prompt preview built from them (so added
// lore shows up in it), the charts' data, and a scene re-read into a memory proposal. New
// records, relationship edits and map connections are validated with the engine's messages.
// Codex pages are built from the same state: a character's or lore entry's mentions found in
// the scenes' prose, its history in sentences as the engine words it.
import type {
  AppError,
  Beat_Serialize as Beat,
  BibleView_Serialize,
  ChangeReason,
  CodexEntry_Serialize as CodexEntry,
  CodexField,
  Mention,
  EditProposal_Serialize as EditProposal,
  LoreFact_Serialize as LoreFact,
  PressureClock_Serialize as PressureClock,
  PromptPreview_Serialize,
  SceneView_Serialize,
  StoryCharts_Serialize,
  StoryEvent,
} from "../../src/bindings";
import { GRAPH, entity } from "./fixtures";

interface Ctx {
  need: () => void;
  changed: (reason: ChangeReason) => Promise<void>;
  scenes: () => SceneView_Serialize[];
}

export const PROPOSAL_CHANGES = [
  {
    index: 0,
    category: "character_update" as const,
    subject: "Bram",
    summary: "Alive or dead: alive → dead; Whereabouts: Rainmarket Docks → Salt Gate",
    lines: [
      { label: "Alive or dead", before: "alive", after: "dead" },
      { label: "Whereabouts", before: "Rainmarket Docks", after: "Salt Gate" },
    ],
  },
  {
    index: 1,
    category: "relationship" as const,
    subject: "Tamsin Vale and Bram",
    summary: "She leaves him on the steps.",
    lines: [{ label: "Where it stands", before: "uneasy", after: "broken" }],
  },
  { index: 2, category: "lore" as const, subject: "custom", summary: "The tide bells ring only for the drowned.", lines: [] },
];

/** Where `names` appear in the scenes' prose: the passages (paragraphs) naming any of them. */
function mentionsOf(names: string[], scenes: SceneView_Serialize[]): Mention[] {
  const out: Mention[] = [];
  const words = names.filter((n) => n.trim() !== "");
  if (words.length === 0) return out;
  const re = new RegExp(`\\b(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`, "gi");
  for (const s of scenes) {
    for (const para of s.prose.split("\n\n")) {
      const marks = [...para.matchAll(re)].map((m) => ({ start: [...para.slice(0, m.index)].length, len: [...m[0]].length }));
      if (marks.length > 0) out.push({ scene_id: s.id, tick: s.tick, scene_title: s.title, snippet: para, marks });
    }
  }
  return out;
}

const field = (key: string, label: string, value: string | string[]): CodexField =>
  Array.isArray(value) ? { key, label, text: "", items: value } : { key, label, text: value, items: [] };

export function bibleHandlers({ need, changed, scenes }: Ctx): Record<string, (a: Record<string, unknown>) => unknown> {
  let foundation: BibleView_Serialize["foundation"] = {
    title: "Salt and Iron",
    genre: "fantasy",
    premise: "A smuggler clears her brother's name in a harbor city ruled by the watch.",
    setting: "Port Ember",
    tone: "tense, wry",
    style: "close third, short sentences",
    pov: "deep_third",
    tense: "past",
    language: "en",
    themes: ["loyalty", "debt"],
    author_note: "",
  };
  let goal: string | null = "Free Tamsin's brother before the hanging tide.";
  let beats: Beat[] = [
    { id: "B1", position: 0, text: "Tamsin finds the ledger's missing page", status: "open", done_tick: null },
    { id: "B2", position: 1, text: "Bram is caught at the customs house", status: "open", done_tick: null },
  ];
  let clocks: PressureClock[] = [
    { id: "P1", name: "The watch closes in", description: "", value: 3, max: 10, per_tick: 1, thresholds: [{ at: 6, note: "patrols double" }], created_tick: 0 },
  ];
  let events: StoryEvent[] = [{ id: "E1", tick: 6, description: "The harbor is sealed", status: "pending" }];
  let lore: LoreFact[] = [
    { id: "F1", fact: "The harbor watch answers only to the tide council.", category: "politics", importance: "high", keywords: ["watch", "council"], aliases: [], always_on: false, source_tick: null, created_tick: 0 },
  ];
  let nextId = 10;
  // Ways the writer connected in this session (the mocked graph itself does not change).
  const connected = new Set<string>();
  const reject = (message: string): never => {
    throw { kind: "invalid_input", message } satisfies AppError;
  };
  const edited = <T>(value: T): T => {
    void changed("bible_edited");
    return value;
  };
  const bible = (): BibleView_Serialize => ({ foundation, goal, beats, clocks, events, lore, current_tick: scenes().length });

  return {
    story_bible: () => {
      need();
      return bible();
    },
    codex_entry: (a): CodexEntry => {
      need();
      const id = String(a.id);
      const page = (p: Omit<CodexEntry, "id" | "mention_scenes" | "mentions" | "detail">, detail: CodexEntry["detail"]): CodexEntry => {
        const mentions = mentionsOf(p.searched, scenes());
        return { ...p, id, mentions, mention_scenes: new Set(mentions.map((m) => m.tick)).size, detail };
      };
      const fact = lore.find((f) => f.id === id);
      if (fact) {
        return page(
          {
            kind: "lore",
            name: fact.fact.length > 60 ? `${fact.fact.slice(0, 59)}…` : fact.fact,
            fields: [
              field("fact", "Fact", fact.fact),
              field("category", "Category", fact.category),
              field("importance", "Importance", fact.importance),
              field("keywords", "Keywords", fact.keywords),
              field("aliases", "Also known as", fact.aliases),
              field("always_on", "In every scene's context", fact.always_on ? "yes" : "no"),
            ],
            category: fact.category || null,
            tags: fact.keywords,
            relationships: [],
            searched: [...fact.aliases, ...fact.keywords],
            history: [{ tick: fact.created_tick, text: fact.created_tick === 0 ? "In the story from the start." : `First recorded in scene ${fact.created_tick}.`, flagged: false, yours: false }],
          },
          { id, kind: "lore", name: fact.fact, record: { ...fact }, history: [], knowledge: null },
        );
      }
      const detail = entity(id);
      const node = GRAPH.nodes.find((n) => n.id === id);
      if (!detail || !node || (node.kind !== "character" && node.kind !== "location")) {
        throw { kind: "not_found", message: "That character, place or lore entry is not in the story (any more)." } satisfies AppError;
      }
      if (id === "C0") {
        return page(
          {
            kind: "character",
            name: "Tamsin Vale",
            fields: [
              field("role", "Role", "smuggler"),
              field("aliases", "Also known as", ["the Vale girl", "Tam, of the Docks"]),
              field("description", "Description", "Quick hands, a brother in the harbor jail."),
              field("personality", "Personality", []),
              field("arc.want", "Wants", "her brother free"),
              field("arc.need", "Needs", "to trust someone"),
              field("goals", "Goals", ["Clear her brother's name"]),
              field("emotional_state", "Emotional state", "wary"),
              field("last_location", "Last seen at", "Rainmarket Docks"),
              field("inventory", "Carries", ["brass key", "oilskin coat"]),
            ],
            category: "smuggler",
            tags: [],
            relationships: [{ other_id: "C1", other: "Bram", kind: "ally", status: "uneasy", sees_them: "useful, for now", seen_by_them: "trouble" }],
            searched: ["Tamsin Vale", "Tamsin", "the Vale girl", "Tam, of the Docks"],
            history: [
              { tick: 0, text: "In the story from the start.", flagged: false, yours: false },
              { tick: 1, text: "Became wary in scene 1 (was hopeful).", flagged: false, yours: false },
              { tick: 2, text: "A change that contradicts an established fact was not applied in scene 2: alive or dead “alive” → “dead”.", flagged: true, yours: false },
              { tick: 2, text: "Took on the goal: Clear her brother's name in scene 2.", flagged: false, yours: true },
              { tick: 2, text: "Moved from Salt Gate to Rainmarket Docks in scene 2.", flagged: false, yours: false },
            ],
          },
          detail,
        );
      }
      return page(
        {
          kind: node.kind,
          name: node.label,
          fields: node.kind === "character" ? [field("role", "Role", node.subtitle), field("description", "Description", "")] : [field("description", "Description", node.subtitle)],
          category: node.kind === "character" && node.subtitle ? node.subtitle : null,
          tags: [],
          relationships: id === "C1" ? [{ other_id: "C0", other: "Tamsin Vale", kind: "ally", status: "uneasy", sees_them: "trouble", seen_by_them: "useful, for now" }] : [],
          searched: [node.label],
          history: [{ tick: node.first_tick, text: node.first_tick === 0 ? "In the story from the start." : node.kind === "character" ? `Enters the story in scene ${node.first_tick}.` : `First appears in scene ${node.first_tick}.`, flagged: false, yours: false }],
        },
        detail,
      );
    },
    // The names the reader links: the graph's characters and places (Tamsin with her aliases)
    // and lore by its aliases, longest first as the engine gives them.
    codex_names: () => {
      need();
      const aliases: Record<string, string[]> = { C0: ["the Vale girl", "Tamsin"] };
      const longest = (names: string[]) => [...names].sort((a, b) => b.length - a.length);
      return [
        ...GRAPH.nodes
          .filter((n) => n.kind === "character" || n.kind === "location")
          .map((n) => ({ id: n.id, title: n.label, names: longest([n.label, ...(aliases[n.id] ?? [])]) })),
        ...lore.filter((f) => f.aliases.length > 0).map((f) => ({ id: f.id, title: f.aliases[0], names: longest(f.aliases) })),
      ];
    },
    story_charts: (): StoryCharts_Serialize => {
      need();
      return {
        tension: scenes().map((s, i) => ({ tick: s.tick, title: s.title, tension: [3, 6, 4, 8, 7][i % 5] })),
        emotions: [
          { id: "C0", name: "Tamsin Vale", points: [{ tick: 0, state: "hopeful" }, { tick: 1, state: "wary" }, { tick: 2, state: "furious" }] },
          { id: "C1", name: "Bram Okafor", points: [{ tick: 0, state: "guarded" }, { tick: 2, state: "afraid" }] },
          { id: "C7", name: "Lieutenant Corwin Hale of the Salt Watch", points: [{ tick: 1, state: "suspicious" }] },
        ],
      };
    },
    preview_next_prompt: (): PromptPreview_Serialize => {
      need();
      const loreText = lore.map((f) => `- ${f.fact}`).join("\n");
      const sections = [
        { name: "foundation", tokens: 180, budget: 400, trimmed: false },
        { name: "author_note", tokens: Math.ceil((foundation?.author_note?.length ?? 0) / 4), budget: 300, trimmed: false },
        { name: "lore", tokens: Math.ceil(loreText.length / 4), budget: 600, trimmed: false },
        { name: "recent", tokens: 1450, budget: 1200, trimmed: true },
        { name: "previous_tail", tokens: 220, budget: 300, trimmed: false },
        { name: "tool_results", tokens: 140, budget: 500, trimmed: false },
      ];
      const user = `## Lore\n${loreText}\n\n## Recent scenes\n…`;
      const total = sections.reduce((n, s) => n + s.tokens, 0);
      return { tick: scenes().length + 1, semantic_model: null, notice: null, sections, system_tokens: 600, user_tokens: total, prompt_tokens: total + 612, system: "You plan the next scene.", user };
    },
    edit_record: (a) => {
      need();
      const update = a.update as { changes: Record<string, unknown> };
      if (update.changes.name === "") reject("name must not be empty");
      const intensity = update.changes.intensity;
      if (typeof intensity === "number" && (intensity < 1 || intensity > 10)) reject(`invalid change to ${String(a.id)}: field \`intensity\`: ${intensity} is outside 1–10`);
      const contradictions = "facts" in update.changes || update.changes.status === "alive" ? [{ path: "facts.brother", recorded: "alive", proposed: "dead" }] : [];
      return edited({ id: a.id, applied: Object.keys(update.changes).map((k) => ({ path: k, old: null, new: update.changes[k] })), contradictions });
    },
    add_record: (a) => {
      need();
      const r = a.record as { record: string; name?: string; fact?: string; description?: string; kind?: string; intensity?: number | null } & Partial<LoreFact>;
      if (r.record === "lore") {
        if (!r.fact) reject("a lore fact must not be empty");
        const id = `F${nextId++}`;
        lore = [...lore, { id, fact: r.fact ?? "", category: r.category ?? "", importance: r.importance ?? "medium", keywords: r.keywords ?? [], aliases: r.aliases ?? [], always_on: r.always_on ?? false, source_tick: null, created_tick: scenes().length }];
        return edited(id);
      }
      if (r.record === "loop") {
        if (!r.description) reject("`description` must not be empty");
        return edited(`O${nextId++}`);
      }
      if (r.record === "relationship") {
        if (!r.kind) reject("`kind` must not be empty");
        const intensity = r.intensity ?? 5;
        if (intensity < 1 || intensity > 10) reject(`\`intensity\` ${intensity} is outside 1–10`);
        return edited(`R${nextId++}`);
      }
      if (!r.name) reject("name must not be empty");
      return edited(`${r.record === "character" ? "C" : "L"}${nextId++}`);
    },
    change_connection: (a) => {
      need();
      const c = a.change as { op: string; a: string; b: string };
      if (c.a === c.b) reject(`a place cannot connect to itself (${c.a}); pick two different places`);
      const pair = [c.a, c.b].sort().join("~");
      if (c.op === "connect") {
        if (connected.has(pair)) reject(`${c.a} and ${c.b} are already connected`);
        connected.add(pair);
      }
      return edited(null);
    },
    act_on_loop: (a) => {
      need();
      return edited({ id: a.id, status: a.action === "reopen" ? "open" : a.action === "resolve" ? "resolved" : "abandoned" });
    },
    edit_loop: (a) => edited({ id: a.id }),
    edit_lore: (a) => {
      need();
      const changes = a.changes as Partial<LoreFact>;
      lore = lore.map((f) => (f.id === a.id ? { ...f, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== null)) } : f));
      return edited(lore.find((f) => f.id === a.id));
    },
    delete_lore: (a) => {
      need();
      lore = lore.filter((f) => f.id !== a.id);
      return edited(null);
    },
    edit_foundation: (a) => {
      need();
      const c = a.changes as Record<string, unknown>;
      if (c.premise === "") reject("the premise must not be empty");
      if (foundation) foundation = { ...foundation, ...Object.fromEntries(Object.entries(c).filter(([k, v]) => v !== null && k !== "goal")) };
      if (typeof c.goal === "string") goal = c.goal;
      return edited(foundation);
    },
    set_author_note: (a) => {
      need();
      if (foundation) foundation = { ...foundation, author_note: String(a.note).trim() };
      return edited(foundation);
    },
    change_outline: (a) => {
      need();
      const c = a.change as { op: string; id?: string; text?: string; to?: number; done?: boolean };
      const renumber = () => (beats = beats.map((b, i) => ({ ...b, position: i })));
      if (c.op === "add") beats = [...beats, { id: `B${nextId++}`, position: beats.length, text: c.text ?? "", status: "open", done_tick: null }];
      if (c.op === "edit") beats = beats.map((b) => (b.id === c.id ? { ...b, text: c.text ?? "" } : b));
      if (c.op === "remove") beats = beats.filter((b) => b.id !== c.id);
      if (c.op === "mark") beats = beats.map((b) => (b.id === c.id ? { ...b, status: c.done ? "done" : "open", done_tick: c.done ? scenes().length : null } : b));
      if (c.op === "move") {
        const i = beats.findIndex((b) => b.id === c.id);
        const [b] = beats.splice(i, 1);
        beats.splice(c.to ?? 0, 0, b);
      }
      renumber();
      return edited(beats);
    },
    change_pressure: (a) => {
      need();
      const c = a.change as { op: string; id?: string; clock?: Omit<PressureClock, "id" | "created_tick">; tick?: number; description?: string };
      if (c.op === "add_clock" && c.clock) {
        if (!c.clock.name.trim()) reject("a clock needs a name");
        clocks = [...clocks, { ...c.clock, id: `P${nextId++}`, created_tick: scenes().length }];
      }
      if (c.op === "remove_clock") clocks = clocks.filter((k) => k.id !== c.id);
      if (c.op === "add_event") events = [...events, { id: `E${nextId++}`, tick: c.tick ?? 0, description: c.description ?? "", status: "pending" }];
      if (c.op === "remove_event") events = events.filter((e) => e.id !== c.id);
      return edited({ clocks, events });
    },
    propose_scene_memory: (a): EditProposal => {
      need();
      return {
        tick: Number(a.tick),
        title: "The Bells Fall Silent",
        summary: ["Bram dies on the customs-house steps.", "Tamsin takes his knife."],
        tension: 8,
        changes: PROPOSAL_CHANGES,
        later: [{ tick: Number(a.tick) + 1, title: "Rope and Salt", findings: [{ check: "dead_character", severity: "violation", message: "Bram is dead but speaks here.", excerpt: "Bram said" }] }],
        notes: [],
        extraction: { title: "The Bells Fall Silent", summary: [], tension: 8, location: null, character_updates: [], new_characters: [], location_updates: [], new_locations: [], relationship_updates: [], new_relationships: [], loops_opened: [], loops_advanced: [], loops_resolved: [], lore: [] } as unknown as EditProposal["extraction"],
      };
    },
    accept_scene_memory: (a) => {
      need();
      const unticked = a.unticked as number[];
      return edited({ applied: { kept: PROPOSAL_CHANGES.length - unticked.length }, later: [] });
    },
  };
}

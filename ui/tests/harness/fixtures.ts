// Story data for the mocked backend: a small novel ("Salt and Iron") with scenes, a graph,
// entity details with history (one flagged contradiction), timeline rows and loops; plus a
// generator for a large graph.
import type {
  EntityDetail_Serialize,
  GraphEdge_Serialize,
  GraphNode,
  LoopCard_Serialize,
  NovelOverview_Serialize,
  ProvidersView_Serialize,
  SceneView_Serialize,
  StoryGraph_Serialize,
  TimelineRow_Serialize,
} from "../../src/bindings";

export const NOVEL_PATH = "/home/writer/Novels/salt-and-iron";

export const PROSE = [
  "Rain had found its way under Tamsin's collar again. She pressed her back to the piling and counted the lamps along the quay: six lit, two drowned, one swinging loose on its hook. The tide bells were quiet. That was worse than ringing.",
  "Somewhere past the fish stalls a door slammed, and boots crossed the planks in a slow, even rhythm. The harbor watch never hurried. They didn't need to.",
  "The dockhand was where the gossip had promised, hunched over a coil of rope with a knife in one fist and a pipe gone cold in his teeth. Bram was broad as a mooring post and about as talkative.",
  "\"You're the Vale girl,\" he said without looking up.",
  "\"Depends who's asking.\"",
  "\"Nobody's asking. That's the trouble.\" He sliced the rope clean and tossed the frayed end into the water.",
].join("\n\n");

export const HOSTILE_PROSE =
  'Tamsin read the slate twice. <script>window.__pwned = "script"</script>\n\n' +
  '<img src="x" onerror="window.__pwned = \'img\'"> The ink was still wet.\n\n' +
  "She folded the slate into her coat and did not look back.";

const TITLES = ["Low Tide", "The Salt Gate", "Bells Before the Storm", "Customs House", "Ink and Water"];

export function scene(tick: number, prose = PROSE): SceneView_Serialize {
  return {
    id: `S${tick}`,
    tick,
    title: TITLES[(tick - 1) % TITLES.length] + (tick > TITLES.length ? ` ${tick}` : ""),
    pov: "Tamsin Vale",
    location: tick % 2 ? "Rainmarket Docks" : "Salt Gate",
    prose,
    word_count: prose.split(/\s+/).filter(Boolean).length,
    summary: ["Tamsin finds Bram on the quay.", "Bram hides her in the flooded cellar.", "The watch passes by."],
    tension: 5,
    created_at: "2025-11-20T10:00:00Z",
  };
}

export function timelineRow(tick: number, title: string): TimelineRow_Serialize {
  return {
    tick,
    status: "committed",
    written_by: "agent",
    title,
    pov: "Tamsin Vale",
    location: "Rainmarket Docks",
    rationale: "Tamsin needs an ally to hide from the watch.",
    tools: [
      { tool: "memory.search", ok: true, detail: '{"hits":2}' },
      { tool: "character.generate", ok: true, detail: '{"id":"C1","name":"Bram"}' },
    ],
    findings: [{ check: "length", severity: "note", message: "The scene is a little short (480 words).", excerpt: null }],
    calls: 3,
    tokens: 2310,
    started_at: "2025-11-20T10:00:00Z",
    finished_at: "2025-11-20T10:00:42Z",
    duration_ms: 42000,
    error: null,
    characters: tick % 2 ? ["Bram", "Tamsin Vale"] : ["Old Hesk", "Tamsin Vale"],
    chapter: Math.ceil(tick / 2),
    chapter_title: ["The Quay", "Salt Gate", "Bells"][(Math.ceil(tick / 2) - 1) % 3],
    roles: [
      { role: "planner", model: "qwen2.5-7b", calls: 1, prompt_tokens: 600, completion_tokens: 150, cost: 0 },
      { role: "writer", model: "claude-sonnet", calls: 1, prompt_tokens: 900, completion_tokens: 500, cost: 0.0102 },
      { role: "extractor", model: "qwen2.5-7b", calls: 1, prompt_tokens: 110, completion_tokens: 50, cost: 0 },
    ],
    cost: 0.0102,
  };
}

/** A scene the agent did not write: by hand (no POV recorded) or imported (read once). */
export function ownRow(tick: number, title: string, by: "hand" | "import"): TimelineRow_Serialize {
  const row = timelineRow(tick, title);
  const reader = row.roles.filter((r) => r.role === "extractor");
  return {
    ...row,
    written_by: by,
    pov: by === "hand" ? null : row.pov,
    rationale: by === "import" ? "A scene of the imported manuscript, adopted as written." : null,
    tools: [],
    findings: [],
    calls: by === "import" ? 1 : 0,
    tokens: by === "import" ? 160 : 0,
    duration_ms: null,
    roles: by === "import" ? reader : [],
    cost: 0,
  };
}

export function overview(
  scenes: SceneView_Serialize[],
  pending: NovelOverview_Serialize["pending_failure"],
  failedDraft: string | null = null,
): NovelOverview_Serialize {
  const tick = scenes.length ? scenes[scenes.length - 1].tick : 0;
  const last = scenes[scenes.length - 1];
  return {
    path: NOVEL_PATH,
    foundation: {
      title: "Salt and Iron",
      genre: "Fantasy noir",
      premise: "A smuggler in a drowned city hunts the men who framed her brother.",
      setting: "A drowned trading city of canals and bells",
      tone: "Tense, rain-soaked",
      style: "Spare, concrete",
      pov: "deep_third",
      tense: "past",
      language: "English",
    },
    generation: {
      target_words_min: 500,
      target_words_max: 900,
      max_tools_per_tick: 3,
      recent_scenes_count: 3,
      include_overall_summary: true,
      critic: false,
      review_before_commit: false,
    },
    current_tick: tick,
    branch: "main",
    scenes: scenes.length,
    words: scenes.reduce((n, s) => n + s.word_count, 0),
    characters: 3,
    locations: 2,
    open_loops: 1,
    pending_failure: pending,
    failed_draft: pending ? failedDraft : null,
    last_scene: last ? { tick: last.tick, title: last.title, summary: last.summary[0] ?? null } : null,
    write_again_refusal: null,
    updated_at: "2025-11-20T10:00:42Z",
    search_notice: null,
  };
}

export const GRAPH: StoryGraph_Serialize = {
  nodes: [
    { id: "L0", kind: "location", label: "Rainmarket Docks", subtitle: "Piers and fish stalls", first_tick: 0, last_update_tick: 1, alive: true },
    { id: "L1", kind: "location", label: "Salt Gate", subtitle: "An old sluice gate", first_tick: 2, last_update_tick: 2, alive: true },
    { id: "C0", kind: "character", label: "Tamsin Vale", subtitle: "smuggler", first_tick: 0, last_update_tick: 2, alive: true },
    { id: "C1", kind: "character", label: "Bram", subtitle: "dockhand", first_tick: 1, last_update_tick: 2, alive: true },
    { id: "C2", kind: "character", label: "Old Hesk", subtitle: "fence", first_tick: 1, last_update_tick: 1, alive: false },
  ],
  edges: [
    { id: "C0@L0", kind: "presence", source: "C0", target: "L0", label: "is at", intensity: null },
    { id: "C1@L0", kind: "presence", source: "C1", target: "L0", label: "is at", intensity: null },
    { id: "R0", kind: "relationship", source: "C0", target: "C1", label: "ally (uneasy)", intensity: 4 },
    { id: "L0~L1", kind: "connection", source: "L0", target: "L1", label: "a flooded stair", intensity: null },
  ],
};

/** Names of characters nobody is linked to yet (a new novel's cast): long enough to collide. */
const UNLINKED = [
  "Captain Orrin Pike",
  "Hester Quill",
  "Mother Agathe of the Nets",
  "Silas Marrowby",
  "The Harbourmaster's Clerk",
  "Ysolde Fenwick",
  "Brother Caddoc",
  "Widow Ashgrove",
  "Nell Tanner",
  "Lieutenant Corwin Hale",
  "Old Jory the Lamplighter",
  "Perrin Vask",
];

/** The fixture graph with `count` more characters that have no link to anyone. */
export function graphWithUnlinked(count: number): StoryGraph_Serialize {
  const extra: GraphNode[] = Array.from({ length: count }, (_, i) => ({
    id: `C${10 + i}`,
    kind: "character",
    label: UNLINKED[i % UNLINKED.length] + (i >= UNLINKED.length ? ` ${i}` : ""),
    subtitle: "",
    first_tick: 1,
    last_update_tick: 1,
    alive: true,
  }));
  return { nodes: [...GRAPH.nodes, ...extra], edges: GRAPH.edges };
}

export function bigGraph(size: number): StoryGraph_Serialize {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge_Serialize[] = [];
  const locations = Math.max(1, Math.round(size / 5));
  for (let i = 0; i < size; i++) {
    const isPlace = i < locations;
    nodes.push({
      id: isPlace ? `L${i}` : `C${i}`,
      kind: isPlace ? "location" : "character",
      label: isPlace ? `Place ${i}` : `Person ${i}`,
      subtitle: "",
      first_tick: 1,
      last_update_tick: 1,
      alive: true,
    });
  }
  for (let i = locations; i < size; i++) {
    edges.push({ id: `C${i}@L${i % locations}`, kind: "presence", source: `C${i}`, target: `L${i % locations}`, label: "is at", intensity: null });
    const other = locations + ((i * 7) % (size - locations));
    if (other !== i) {
      edges.push({ id: `R${i}`, kind: "relationship", source: `C${i}`, target: `C${other}`, label: "rival", intensity: 1 + (i % 10) });
    }
  }
  for (let i = 1; i < locations; i++) {
    edges.push({ id: `L${i - 1}~L${i}`, kind: "connection", source: `L${i - 1}`, target: `L${i}`, label: "road", intensity: null });
  }
  return { nodes, edges };
}

export function entity(id: string): EntityDetail_Serialize | null {
  if (id === "C0") {
    return {
      id: "C0",
      kind: "character",
      name: "Tamsin Vale",
      record: {
        id: "C0",
        name: "Tamsin Vale",
        role: "smuggler",
        status: "alive",
        description: "Quick hands, a brother in the harbor jail.",
        goals: ["Clear her brother's name"],
        inventory: ["brass key", "oilskin coat"],
        emotional_state: "wary",
        last_location: "L0",
        aliases: ["the Vale girl", "Tam, of the Docks"],
        arc: { want: "her brother free", need: "to trust someone", phase: "refusal" },
      },
      history: [
        { tick: 1, field: "emotional_state", change: "updated", old_value: "hopeful", new_value: "wary", flagged: false, source: "extraction" },
        { tick: 2, field: "status", change: "contradiction", old_value: "alive", new_value: "dead", flagged: true, source: "extraction" },
        { tick: 2, field: "goals", change: "changed", old_value: null, new_value: ["Clear her brother's name"], flagged: false, source: "writer" },
        { tick: 2, field: "last_location", change: "updated", old_value: "L1", new_value: "L0", flagged: false, source: "extraction" },
        // As the engine records a new character: the whole record, field "*".
        {
          tick: 0,
          field: "*",
          change: "created",
          old_value: null,
          new_value: {
            id: "C0",
            name: "Tamsin Vale",
            role: "smuggler",
            status: "alive",
            goals: ["Clear her brother's name"],
            last_location: "L1",
            arc: { want: "her brother free", need: "to trust someone", phase: "refusal" },
          },
          flagged: false,
          source: "seed",
        },
      ],
      knowledge: {
        scenes: [1, 2],
        deaths: [
          { character_id: "C4", character_name: "Orrin Pike", died: 2, learned: null },
          { character_id: "C5", character_name: "Hester Quill", died: 1, learned: [2, "told"] },
        ],
      },
    };
  }
  if (id === "R0") {
    return {
      id: "R0",
      kind: "relationship",
      name: "Tamsin Vale — Bram",
      record: { id: "R0", character_a: "C0", character_b: "C1", kind: "ally", status: "uneasy", intensity: 4, perspective_a: "useful, for now", perspective_b: "trouble", first_tick: 1, last_update_tick: 2 },
      history: [],
      knowledge: null,
    };
  }
  const node = GRAPH.nodes.find((n) => n.id === id);
  if (!node) return null;
  const knowledge = node.kind === "character" ? { scenes: [], deaths: [] } : null;
  return { id, kind: node.kind, name: node.label, record: { id, name: node.label, description: node.subtitle }, history: [], knowledge };
}

export const LOOPS: LoopCard_Serialize[] = [
  {
    id: "O0",
    description: "Who put Tamsin's name on the watch's slate?",
    category: "mystery",
    importance: "high",
    status: "open",
    opened_tick: 2,
    resolved_tick: null,
    notes: [],
    last_tick: 2,
    column: "open",
    idle_scenes: 0,
    scenes: [2],
  },
  {
    id: "O3",
    description: "What does the harbor master owe Bram?",
    category: "debt",
    importance: "medium",
    status: "open",
    opened_tick: 1,
    resolved_tick: null,
    notes: [{ tick: 2, note: "Tamsin learns her brother is wanted too." }],
    last_tick: 2,
    column: "advancing",
    idle_scenes: 0,
    scenes: [1, 2],
  },
  {
    id: "O2",
    description: "The smell of smoke from the net loft.",
    category: "atmosphere",
    importance: "low",
    status: "open",
    opened_tick: 0,
    resolved_tick: null,
    notes: [],
    last_tick: 0,
    column: "stale",
    idle_scenes: 6,
    scenes: [],
  },
  {
    id: "O1",
    description: "Will Bram betray her to the customs house?",
    category: "trust",
    importance: "medium",
    status: "resolved",
    opened_tick: 1,
    resolved_tick: 2,
    notes: [{ tick: 2, note: "Bram hid her instead." }],
    last_tick: 2,
    column: "resolved",
    idle_scenes: 0,
    scenes: [1, 2],
  },
];

/** A loop the writer let go, for the board's resolved column. */
export const ABANDONED_LOOP: LoopCard_Serialize = {
  id: "O4",
  description: "A debt to the lamplighters' guild.",
  category: "debt",
  importance: "low",
  status: "abandoned",
  opened_tick: 1,
  resolved_tick: null,
  notes: [{ tick: 2, note: "Let go: it went nowhere." }],
  last_tick: 2,
  column: "resolved",
  idle_scenes: 0,
  scenes: [1, 2],
};

export const PROVIDERS: ProvidersView_Serialize = {
  file: "/home/writer/.config/novel-agent/providers.toml",
  default_profile: "local",
  profiles: [
    {
      profile: {
        name: "local",
        kind: "openai-compatible",
        base_url: "http://127.0.0.1:8080/v1",
        model: "qwen2.5-14b",
        timeout_secs: 120,
        max_retries: 2,
        retry_base_delay_ms: 500,
      },
      key_ready: true,
      key_problem: null,
    },
    {
      profile: {
        name: "claude",
        kind: "anthropic",
        model: "claude-sonnet",
        timeout_secs: 120,
        max_retries: 2,
        retry_base_delay_ms: 500,
      },
      key_ready: false,
      key_problem: "The environment variable ANTHROPIC_API_KEY is not set. Set it, or store the key in the keychain.",
    },
  ],
};

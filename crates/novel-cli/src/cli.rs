//! The command-line grammar.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "novel",
    version,
    about = "Write long-form fiction one story tick at a time."
)]
pub struct Cli {
    /// The novel's directory (default: the current directory).
    #[arg(short = 'C', long = "novel", global = true, value_name = "DIR")]
    pub novel: Option<PathBuf>,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a new novel in DIR from a seed file and/or flags.
    New(Box<NewArgs>),
    /// Show where the story stands.
    Status,
    /// List characters, locations, relationships, loops, lore or scenes.
    List {
        #[arg(value_enum)]
        what: ListKind,
    },
    /// Show one record (C0, L1, R0, O2, W0, S3) with its history.
    Inspect { id: String },
    /// Write the next scene (one story tick).
    Tick(TickArgs),
    /// Write the next N scenes. Ctrl-C stops after the current tick; twice cancels it.
    Run {
        #[arg(long, short = 'n', default_value_t = 5)]
        n: u32,
        #[command(flatten)]
        tick: TickArgs,
    },
    /// Audit the book (or a range of scenes): plans realized, beats, open questions, stalls,
    /// people who change, records that agree, point of view, voice, repetition and cost.
    Audit {
        /// The first scene audited (default: the first).
        #[arg(long)]
        from: Option<u32>,
        /// The last scene audited (default: the latest).
        #[arg(long)]
        to: Option<u32>,
        /// List every failure, not the first few of each criterion.
        #[arg(long)]
        all: bool,
        /// First ask the extractor model whether each scene written before plan verdicts were
        /// recorded did what its plan intended (one call per such scene; the verdict is kept).
        #[arg(long)]
        judge: bool,
        /// The provider profile for --judge (default: the novel's extractor's).
        #[arg(long)]
        profile: Option<String>,
    },
    /// The story so far as prose, a paragraph per chapter gathered by part (or arc).
    Summarize {
        /// List each scene's summary lines instead.
        #[arg(long)]
        by_scene: bool,
    },
    /// Configure and check LLM providers (kept in your config directory, never in a novel).
    #[command(subcommand)]
    Providers(Box<ProvidersCommand>),
    /// Rebuild the search index (passages, summaries, embeddings) from the story memory.
    Reindex,
    /// Show what the next prompt will contain: each section's tokens against its budget.
    Context {
        /// The next tick's planner prompt (the only prompt known before the tick runs).
        #[arg(long, required = true)]
        next: bool,
        /// Also print the rendered prompt.
        #[arg(long)]
        show: bool,
    },
    /// Write the latest scene again (its memory changes are undone first; the old scene stays
    /// as a version).
    Regenerate {
        /// A steering note for the new attempt.
        #[arg(long)]
        note: Option<String>,
        /// The provider profile to use (default: the configured default).
        #[arg(long)]
        profile: Option<String>,
    },
    /// Return the story exactly to its state right after scene N; the later scenes become a
    /// branch.
    Rewind {
        #[arg(long, value_name = "N")]
        to: u32,
    },
    /// List every version of a scene (drafts, revisions, regenerations, edits).
    Versions {
        /// The scene number.
        scene: u32,
        /// Print the text of this version (its number in the list).
        #[arg(long)]
        show: Option<usize>,
        /// Show what changed between two versions (their numbers in the list).
        #[arg(long, num_args = 2, value_names = ["A", "B"])]
        diff: Option<Vec<usize>>,
    },
    /// Make a version of a scene its text again (the restore is itself undoable).
    RestoreVersion {
        /// The scene number.
        scene: u32,
        /// The version's number in `novel versions <scene>`.
        version: usize,
    },
    /// Branches of the story: list, fork, switch, rename, delete, compare.
    #[command(subcommand)]
    Branch(BranchCommand),
    /// Run every check (POV, tense, person, continuity, meta text, style) on a prose file
    /// against this novel's settings and story memory.
    ///
    /// With --corpus instead of a file: measure the checks on a corpus of published prose
    /// (no novel needed): false alarms per 1,000 words by mode and severity, and precision
    /// and recall per check family on its labelled sentences.
    Check {
        /// The prose to check: a draft, or a scene file from scenes/.
        #[arg(required_unless_present = "corpus")]
        file: Option<PathBuf>,
        /// Whose point of view the text is in (a character id; default: the active one).
        #[arg(long, value_name = "ID", conflicts_with = "corpus")]
        pov_character: Option<String>,
        /// Where the scene happens (a location id; default: the POV character's last place).
        #[arg(long, value_name = "ID", conflicts_with = "corpus")]
        location: Option<String>,
        /// A corpus folder (one folder per book with book.toml, chunks and labelled.toml),
        /// e.g. crates/novel-core/tests/prose.
        #[arg(long, value_name = "DIR", conflicts_with = "file")]
        corpus: Option<PathBuf>,
        /// With --corpus: also list every finding on the prose (alarms), the labelled items
        /// the checks got wrong (misses), or both (all).
        #[arg(long, value_name = "WHAT", requires = "corpus")]
        show: Option<CorpusShow>,
    },
    /// Copy novel.db into backups/ now (the newest 10 are kept; one is also taken every 10
    /// ticks and before an upgrade).
    Backup {
        /// Check novel.db and the copy with SQLite's integrity_check.
        #[arg(long)]
        verify: bool,
        /// List the backups instead of taking one.
        #[arg(long, conflicts_with = "verify")]
        list: bool,
    },
    /// Put a backup of novel.db back in place; the current one is kept aside, never deleted.
    #[command(group = clap::ArgGroup::new("source").required(true))]
    Restore {
        /// The backup file to restore.
        #[arg(group = "source")]
        file: Option<PathBuf>,
        /// Restore the newest backup in backups/ that passes integrity_check.
        #[arg(long, group = "source")]
        latest: bool,
    },
    /// Change a record (characters, places, relationships; loops and lore take their own
    /// fields).
    ///
    /// Example: `novel edit C3 --set emotional_state=wary --append inventory='"map"'`
    Edit {
        /// The record (C3, L1, R0, O2, W5).
        id: String,
        /// field=value; the value is JSON when it parses as JSON (numbers, lists, true), text
        /// otherwise; a dotted field sets a nested one (arc.phase=doubt).
        #[arg(long = "set", value_name = "FIELD=VALUE")]
        set: Vec<String>,
        /// field=value to add to a list field: one item, or a JSON list of items.
        #[arg(long = "append", value_name = "FIELD=VALUE")]
        append: Vec<String>,
    },
    /// Add a record.
    ///
    /// Example: `novel add character --set name=Bram --set role=dockhand`
    Add {
        #[arg(value_enum)]
        kind: AddKind,
        /// field=value (as for `novel edit`).
        #[arg(long = "set", value_name = "FIELD=VALUE")]
        set: Vec<String>,
    },
    /// Replace a scene's prose with a file's (kept as a new version; then `novel reread`).
    EditScene {
        /// The scene number.
        scene: u32,
        /// The new prose (Markdown or plain text).
        file: PathBuf,
    },
    /// Re-read an edited scene: one extraction call proposes its new title, summary and memory
    /// changes, and names later scenes that would contradict them. Asks before applying.
    Reread {
        /// The scene number.
        scene: u32,
        /// Apply without asking.
        #[arg(long)]
        accept: bool,
        /// Leave out these proposed changes (their numbers); implies --accept.
        #[arg(long, num_args = 1..)]
        untick: Vec<u32>,
        /// The provider profile to use (default: the configured default).
        #[arg(long)]
        profile: Option<String>,
    },
    /// The book's chapters and parts: list them, rename, split, merge, open a part, or fix the
    /// proposed grouping.
    #[command(subcommand)]
    Chapter(ChapterCommand),
    /// Shape the book by hand: add a scene you wrote anywhere, move, split, merge, rename or
    /// delete one. The scenes after it are renumbered; `novel undo` takes the change back.
    #[command(subcommand)]
    Scene(SceneCommand),
    /// Undo your latest change (a scene added, moved or deleted, an edit, a chapter change).
    Undo,
    /// Start a novel from an existing manuscript (.md, .txt or .docx): split into chapters and
    /// scenes, then one extraction call per scene (characters, places, loops, summaries).
    /// Run it again after a stop or a failure to carry on where it stopped.
    Import {
        /// The manuscript file (ignored when resuming an import already started in the novel).
        file: PathBuf,
        /// The new novel's folder (title, genre… flags as for `novel new`; the protagonist,
        /// first location and goal are still needed).
        #[command(flatten)]
        novel: Box<NewArgs>,
        /// The provider profile to use (default: the configured default).
        #[arg(long)]
        profile: Option<String>,
        /// Only show how the manuscript splits (parts, chapters, scenes, word counts, first
        /// words) and the premise, protagonist and place its text suggests; nothing is made.
        #[arg(long)]
        preview: bool,
        /// The split to import, as `--preview --json` printed it under "shape" and edited
        /// (titles, parts, `starts_chapter`, `included`); default: the split as found.
        #[arg(long, value_name = "FILE", conflicts_with = "preview")]
        shape: Option<PathBuf>,
    },
    /// Resolve, abandon or reopen an open loop.
    Loop {
        #[arg(value_enum)]
        action: LoopActionArg,
        /// The loop (O2).
        id: String,
        /// What happened.
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Delete a lore entry.
    ForgetLore { id: String },
    /// Connect two places (L1 L2), or remove their connection with --remove.
    Connect {
        a: String,
        b: String,
        /// The way between them ("a flooded stair").
        #[arg(long, default_value = "", conflicts_with = "remove")]
        way: String,
        /// Remove the connection instead (a rewind brings it back).
        #[arg(long)]
        remove: bool,
    },
    /// Show or change the foundation: premise, goal, themes, tone, style…
    Foundation(Box<FoundationArgs>),
    /// The author's note: standing guidance in every planner and writer prompt.
    #[command(subcommand)]
    Note(NoteCommand),
    /// The outline: beats the planner takes in order.
    #[command(subcommand)]
    Outline(OutlineCommand),
    /// Pressure on the story: clocks that rise, events bound to a scene.
    #[command(subcommand)]
    Pressure(PressureCommand),
    /// Search the book's prose by words and by meaning (the local embedding model, when
    /// installed); each hit names its chapter and scene.
    Search {
        query: String,
        /// Match words only.
        #[arg(long, conflicts_with = "meaning")]
        words: bool,
        /// Match by meaning only (needs the local embedding model).
        #[arg(long)]
        meaning: bool,
        /// How many passages to show.
        #[arg(short = 'n', long, default_value_t = 10)]
        limit: u32,
    },
    /// Replace a name across the whole book (prose, scene titles, summaries) as one change;
    /// whole words only, case as given.
    Replace {
        old: String,
        new: String,
        /// Also rename the character or place bearing the old name, keeping it as an alias.
        #[arg(long)]
        alias: bool,
        /// Only say what would change.
        #[arg(long)]
        dry_run: bool,
    },
    /// Export the manuscript with its chapters: Markdown, an EPUB 3 e-book, or a DOCX in
    /// standard manuscript format.
    Export {
        #[arg(long, value_enum, default_value = "md")]
        format: ExportFormat,
        /// Where to write it (default: exports/<title>.<md|epub|docx> inside the novel).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The author's name on the title page (default: the author in novel.toml).
        #[arg(long)]
        author: Option<String>,
        /// The DOCX manuscript's typeface.
        #[arg(long, value_enum, default_value = "times")]
        font: FontArg,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ListKind {
    Characters,
    Locations,
    Relationships,
    Loops,
    Lore,
    Scenes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AddKind {
    Character,
    Location,
    Relationship,
    Loop,
    Lore,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LoopActionArg {
    Resolve,
    Abandon,
    Reopen,
}

/// The foundation's fields as flags, shared by `new` and `foundation`.
#[derive(Debug, Args)]
pub struct FoundationFlags {
    #[arg(long)]
    pub title: Option<String>,
    /// The author's name, as exports print it (title page, running header).
    #[arg(long)]
    pub author: Option<String>,
    #[arg(long)]
    pub genre: Option<String>,
    #[arg(long)]
    pub premise: Option<String>,
    #[arg(long)]
    pub setting: Option<String>,
    #[arg(long)]
    pub tone: Option<String>,
    #[arg(long)]
    pub style: Option<String>,
    /// Point of view.
    #[arg(long, value_enum)]
    pub pov: Option<PovArg>,
    /// Narrative tense.
    #[arg(long, value_enum)]
    pub tense: Option<TenseArg>,
    #[arg(long)]
    pub language: Option<String>,
}

#[derive(Debug, Args)]
pub struct FoundationArgs {
    #[command(flatten)]
    pub fields: FoundationFlags,
    /// Comma-separated themes.
    #[arg(long)]
    pub themes: Option<String>,
    /// The directional goal.
    #[arg(long)]
    pub goal: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum NoteCommand {
    Show,
    Set { text: String },
    Clear,
}

#[derive(Debug, Subcommand)]
pub enum OutlineCommand {
    List,
    /// Add a beat (at the end, or at position N among the open beats: 1 = next).
    Add {
        text: String,
        #[arg(long, value_name = "N")]
        at: Option<usize>,
    },
    Edit {
        id: String,
        text: String,
    },
    /// Move a beat to position N of the outline (1 = first).
    Move {
        id: String,
        #[arg(long, value_name = "N")]
        to: usize,
    },
    Remove {
        id: String,
    },
    /// Mark a beat done (or open again with --undo).
    Done {
        id: String,
        #[arg(long)]
        undo: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum PressureCommand {
    List,
    /// A clock that rises toward its maximum: `--threshold 8:"the harbor is sealed"`.
    AddClock {
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "")]
        description: String,
        #[arg(long)]
        max: u32,
        #[arg(long, default_value_t = 0)]
        value: u32,
        #[arg(long, default_value_t = 0)]
        per_tick: u32,
        #[arg(long = "threshold", value_name = "AT:NOTE")]
        thresholds: Vec<String>,
    },
    /// Set a clock's value.
    SetClock {
        id: String,
        value: u32,
    },
    RemoveClock {
        id: String,
    },
    /// Something that happens in scene N whatever the characters do.
    AddEvent {
        #[arg(long, value_name = "N")]
        at: u32,
        description: String,
    },
    RemoveEvent {
        id: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PovArg {
    /// Close third person, limited to the POV character.
    #[value(name = "deep-third", alias = "third")]
    DeepThird,
    /// First person.
    First,
}

impl From<PovArg> for novel_core::config::PointOfView {
    fn from(p: PovArg) -> Self {
        match p {
            PovArg::DeepThird => novel_core::config::PointOfView::DeepThird,
            PovArg::First => novel_core::config::PointOfView::First,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TenseArg {
    Past,
    Present,
}

impl From<TenseArg> for novel_core::config::Tense {
    fn from(t: TenseArg) -> Self {
        match t {
            TenseArg::Past => novel_core::config::Tense::Past,
            TenseArg::Present => novel_core::config::Tense::Present,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// OpenAI chat completions: OpenAI, llama.cpp, LM Studio, vLLM, OpenRouter, …
    OpenaiCompatible,
    Ollama,
    Anthropic,
    Gemini,
    /// A command-line agent that reads the prompt on stdin.
    Command,
}

impl From<KindArg> for novel_llm::ProviderKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::OpenaiCompatible => novel_llm::ProviderKind::OpenAiCompatible,
            KindArg::Ollama => novel_llm::ProviderKind::Ollama,
            KindArg::Anthropic => novel_llm::ProviderKind::Anthropic,
            KindArg::Gemini => novel_llm::ProviderKind::Gemini,
            KindArg::Command => novel_llm::ProviderKind::Command,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Md,
    Epub,
    Docx,
}

impl From<ExportFormat> for novel_core::export::ExportFormat {
    fn from(f: ExportFormat) -> Self {
        match f {
            ExportFormat::Md => novel_core::export::ExportFormat::Markdown,
            ExportFormat::Epub => novel_core::export::ExportFormat::Epub,
            ExportFormat::Docx => novel_core::export::ExportFormat::Docx,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FontArg {
    /// Times New Roman.
    Times,
    /// Courier New.
    Courier,
}

impl From<FontArg> for novel_core::export::ManuscriptFont {
    fn from(f: FontArg) -> Self {
        match f {
            FontArg::Times => novel_core::export::ManuscriptFont::TimesNewRoman,
            FontArg::Courier => novel_core::export::ManuscriptFont::Courier,
        }
    }
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// Directory to create (must not exist, or be empty).
    pub dir: PathBuf,
    /// A seed TOML file (goal, [novel], [protagonist], [location]); flags override it.
    #[arg(long, value_name = "FILE")]
    pub seed: Option<PathBuf>,
    #[command(flatten)]
    pub foundation: FoundationFlags,
    /// The protagonist's name.
    #[arg(long)]
    pub protagonist: Option<String>,
    #[arg(long)]
    pub protagonist_role: Option<String>,
    #[arg(long)]
    pub protagonist_description: Option<String>,
    /// The starting location's name.
    #[arg(long)]
    pub location: Option<String>,
    #[arg(long)]
    pub location_description: Option<String>,
    /// Where the story is headed: the protagonist's directional goal.
    #[arg(long)]
    pub goal: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct TickArgs {
    /// A steering note for the next scene ("Bram should betray her").
    #[arg(long)]
    pub note: Option<String>,
    /// Retry the tick that failed last (its error stays on disk for reference).
    #[arg(long, conflicts_with = "skip")]
    pub retry: bool,
    /// Give up on the tick that failed last, without writing: the next tick starts fresh (its
    /// error stays on disk for reference).
    #[arg(long, conflicts_with = "note")]
    pub skip: bool,
    /// Keep the draft of the tick that failed last as it is, over the checks' objection (the
    /// tick record says so); only its memory is extracted.
    #[arg(long, conflicts_with_all = ["note", "retry", "skip", "review"])]
    pub keep: bool,
    /// The provider profile to use for every role (default: novel.toml's [models], else the
    /// configured default).
    #[arg(long)]
    pub profile: Option<String>,
    /// Pause the run before a call that would take its tokens (prompt and answer) past N;
    /// replaces novel.toml's [budget.run] tokens.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u64>,
    /// Pause the run before a call that would take its cost past this (at the profiles'
    /// prices); replaces novel.toml's [budget.run] cost.
    #[arg(long, value_name = "COST")]
    pub max_cost: Option<f64>,
    /// Review before anything commits: accept, edit or reject the plan, then the scene with
    /// its memory changes (untick the ones you do not want).
    #[arg(long)]
    pub review: bool,
    /// Print the plan the next tick would follow, and stop: nothing runs or changes.
    #[arg(long, conflicts_with_all = ["review", "retry", "skip"])]
    pub dry_run: bool,
    /// Fresh drafts to try for a tick whose scene could not be kept (commentary instead of
    /// story, the wrong person throughout) before the run stops.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub retries: u32,
}

#[derive(Debug, Subcommand)]
pub enum BranchCommand {
    /// The branches, the current one marked.
    List,
    /// A new branch at scene N (default: the latest), made current.
    New {
        name: String,
        #[arg(long, value_name = "N")]
        at: Option<u32>,
    },
    /// Make a branch current: the story takes its latest state.
    Switch {
        name: String,
    },
    Rename {
        name: String,
        new_name: String,
    },
    /// Delete a branch (not the current one); its scenes stay as versions.
    Delete {
        name: String,
    },
    /// A scene as every branch has it.
    Compare {
        /// The scene number.
        scene: u32,
    },
}

#[derive(Debug, Subcommand)]
pub enum ProvidersCommand {
    /// List the configured profiles.
    List,
    /// Add or replace a profile.
    Add {
        /// Profile name, e.g. "local".
        #[arg(long)]
        name: String,
        /// The provider's wire protocol.
        #[arg(long, value_enum, default_value = "openai-compatible")]
        kind: KindArg,
        /// The server's base URL, e.g. http://127.0.0.1:8080/v1.
        #[arg(long)]
        base_url: Option<String>,
        /// The model name the server knows.
        #[arg(long, default_value = "")]
        model: String,
        /// The NAME of the environment variable holding the API key (never the key itself).
        #[arg(long, conflicts_with = "key_in_keychain")]
        api_key_env: Option<String>,
        /// Read the API key from the OS keychain; store it there with `novel providers set-key`.
        #[arg(long)]
        key_in_keychain: bool,
        /// For --kind command: the program and its arguments, e.g. -- codex exec -.
        #[arg(last = true)]
        command: Vec<String>,
        /// Make it the default profile.
        #[arg(long)]
        default: bool,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Change a profile's model or generation settings (sampling, context length, structured
    /// output, prices); what is not named stays as it is.
    Set {
        /// The profile to change.
        profile: String,
        /// The model name the server knows (`novel providers models` lists them).
        #[arg(long)]
        model: Option<String>,
        #[command(flatten)]
        settings: SettingsArgs,
    },
    /// Find the model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM,
    /// Jan) on their usual ports of 127.0.0.1, with their models.
    Detect {
        /// Probe this port of 127.0.0.1 instead of the usual ones (repeatable).
        #[arg(long = "port", value_name = "PORT")]
        ports: Vec<u16>,
        /// Save a profile for each server found (named after it; the first one found becomes
        /// the default when there is none). Existing profiles of the same name are kept.
        #[arg(long)]
        add: bool,
    },
    /// List the models a profile's server offers, with each one's context length where the
    /// server tells it.
    Models {
        #[arg(long)]
        profile: Option<String>,
    },
    /// Store a profile's API key in the OS keychain, read from standard input (never echoed),
    /// and make the profile read its key from there.
    SetKey {
        /// The profile whose key this is.
        profile: String,
    },
    /// Delete a profile, and its API key from the OS keychain when it kept one there.
    Remove {
        /// The profile to delete.
        name: String,
    },
    /// Remove a profile's API key from the OS keychain.
    DeleteKey {
        /// The profile whose key to remove.
        profile: String,
    },
    /// Check what the profile's server accepts (json_schema, json_object, temperature), its
    /// model's context length and how tokens are counted, send one small request, and record
    /// what was found in the profile.
    Test {
        #[arg(long)]
        profile: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum ChapterCommand {
    /// The chapters with their scenes and words; proposed ones are marked.
    List,
    /// Give chapter N a title.
    Rename { number: u32, title: String },
    /// Split chapter N before scene AT: the scenes from AT on become the next chapter.
    Split {
        number: u32,
        /// The scene (tick) that opens the new chapter.
        #[arg(long, value_name = "SCENE")]
        at: u32,
    },
    /// Merge chapter N with the chapter after it.
    Merge { number: u32 },
    /// Open a part at chapter N with a heading ("Part Two: Iron"); without one, remove it.
    Part { number: u32, title: Option<String> },
    /// Group the scenes no chapter holds yet into chapters of EVERY scenes, titled from them.
    Propose {
        #[arg(long, default_value_t = 10)]
        every: u32,
    },
    /// Delete chapter N and its scenes (`novel undo` brings them back).
    Delete { number: u32 },
    /// Move chapter N, with its scenes, before chapter BEFORE (or to the end).
    Move {
        number: u32,
        #[arg(long, value_name = "CHAPTER")]
        before: Option<u32>,
    },
}

/// Where a scene goes: exactly one of these.
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct PlaceArgs {
    /// Right after scene N, in its chapter.
    #[arg(long, value_name = "SCENE")]
    pub after: Option<u32>,
    /// Just before scene N, in its chapter.
    #[arg(long, value_name = "SCENE")]
    pub before: Option<u32>,
    /// At the end of chapter N.
    #[arg(long, value_name = "CHAPTER")]
    pub end_of_chapter: Option<u32>,
}

#[derive(Debug, Subcommand)]
pub enum SceneCommand {
    /// Add a scene you wrote (from a file) at a place; then `novel reread` it.
    Add {
        /// The scene's title.
        #[arg(long)]
        title: String,
        /// The prose (Markdown or plain text).
        file: PathBuf,
        #[command(flatten)]
        at: PlaceArgs,
    },
    /// Move scene N to another place (numbers as before the move).
    Move {
        scene: u32,
        #[command(flatten)]
        to: PlaceArgs,
    },
    /// Split scene N after paragraph P; the rest becomes the next scene.
    Split {
        scene: u32,
        #[arg(long, value_name = "P")]
        after_paragraph: usize,
        /// The new scene's title (default: "… (continued)").
        #[arg(long)]
        title: Option<String>,
    },
    /// Merge scene N with the scene after it.
    Merge { scene: u32 },
    /// Give scene N a title.
    Rename { scene: u32, title: String },
    /// Delete scene N (`novel undo` brings it back).
    Delete { scene: u32 },
    /// Ask the agent to write a scene at a place from your note (the scenes after it move
    /// down one number); then `novel reread` it.
    Write {
        /// What happens in the scene.
        note: String,
        /// The scene's title (default: the note's first words).
        #[arg(long)]
        title: Option<String>,
        #[command(flatten)]
        at: PlaceArgs,
        /// The provider profile to use for every role (default: novel.toml's [models], else
        /// the configured default).
        #[arg(long)]
        profile: Option<String>,
    },
}

/// A profile's generation settings, for `providers add` and `providers set`.
#[derive(Debug, Clone, Default, Args)]
pub struct SettingsArgs {
    /// Sampling temperature, 0 to 2.
    #[arg(long)]
    pub temperature: Option<f64>,
    /// Nucleus sampling, above 0 and at most 1.
    #[arg(long)]
    pub top_p: Option<f64>,
    /// A ceiling on each answer's length in tokens.
    #[arg(long)]
    pub max_output_tokens: Option<u32>,
    /// The model's context window in tokens (filled in by `providers test` where the server
    /// tells it).
    #[arg(long)]
    pub context_length: Option<u32>,
    /// Seconds a request may take before it is abandoned.
    #[arg(long)]
    pub timeout_secs: Option<u64>,
    /// How to ask for JSON answers: auto steps down as the server refuses; the others pin one
    /// way.
    #[arg(long, value_enum)]
    pub structured_output: Option<StructuredArg>,
    /// The model's tokenizer.json (or its folder), to count tokens as the model does.
    #[arg(long, value_name = "PATH")]
    pub tokenizer_file: Option<PathBuf>,
    /// Price per million prompt tokens (with --price-completion); a profile without prices is
    /// free.
    #[arg(long, requires = "price_completion")]
    pub price_prompt: Option<f64>,
    /// Price per million completion tokens.
    #[arg(long, requires = "price_prompt")]
    pub price_completion: Option<f64>,
    /// Price per million prompt tokens the server reads from its prompt cache (OpenAI and
    /// Gemini bill a fraction, Anthropic a tenth); without it cached tokens cost the prompt
    /// price.
    #[arg(long, requires = "price_prompt")]
    pub price_cached: Option<f64>,
    /// Price per million prompt tokens written to the cache (Anthropic bills 1.25× input).
    #[arg(long, requires = "price_prompt")]
    pub price_cache_write: Option<f64>,
    /// Remove a setting, back to the server's default (repeatable).
    #[arg(long, value_enum, value_name = "SETTING")]
    pub unset: Vec<SettingArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StructuredArg {
    Auto,
    JsonSchema,
    JsonObject,
    PromptOnly,
}

impl From<StructuredArg> for novel_llm::StructuredOutput {
    fn from(s: StructuredArg) -> Self {
        match s {
            StructuredArg::Auto => novel_llm::StructuredOutput::Auto,
            StructuredArg::JsonSchema => novel_llm::StructuredOutput::JsonSchema,
            StructuredArg::JsonObject => novel_llm::StructuredOutput::JsonObject,
            StructuredArg::PromptOnly => novel_llm::StructuredOutput::PromptOnly,
        }
    }
}

/// A setting `--unset` can remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SettingArg {
    Temperature,
    TopP,
    MaxOutputTokens,
    ContextLength,
    TokenizerFile,
    Prices,
    /// What `providers test` recorded about the server.
    Capabilities,
}

/// What `novel check --corpus --show` lists besides the figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CorpusShow {
    Alarms,
    Misses,
    All,
}

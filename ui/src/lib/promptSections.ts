// The sections of the next scene's prompt in the writer's words: the engine names them
// (`previous_tail`, `tool_results`, …) for its templates and budgets, and the preview lists
// them by that name (kept as the row's data-name).
const WORDS: Record<string, string> = {
  foundation: "The story's foundation",
  summary: "The story so far",
  recent: "Recent scenes",
  previous_tail: "End of the last scene",
  loops: "Open loops",
  character: "The point-of-view character",
  relationships: "Their relationships",
  location: "Where the scene is",
  lore: "Lore",
  tool_results: "What the lookups found",
  steering: "Your note for the next scene",
  entities: "Characters and places active lately",
  recalled: "Passages recalled by meaning",
  mentioned: "Characters and places the scene names",
  author_note: "Your author's note",
  outline: "Your outline",
  pressure: "Clocks and coming events",
  cast: "The cast",
};

/** A section's name for the writer; a section the UI does not know yet, in plain words. */
export function sectionLabel(name: string): string {
  const known = WORDS[name];
  if (known) return known;
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

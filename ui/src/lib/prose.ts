// Prose from the model is untrusted text: it is split into paragraphs here and rendered as
// React text nodes (never as HTML), so `<script>` or `<img onerror>` shows as literal text.
export function paragraphs(prose: string): string[] {
  return prose
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

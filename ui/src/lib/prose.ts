// Prose from the model is untrusted text: it is split into paragraphs here and rendered as
// React text nodes (never as HTML), so `<script>` or `<img onerror>` shows as literal text.
// Inline Markdown (`*italics*`, `_italics_`, `**bold**`) is parsed with markdown-it with raw HTML
// off and typography on (curly quotes, en/em dashes, ellipses); its tokens become plain runs of
// text with emphasis flags, which the components turn into <em>/<strong> elements.
import MarkdownIt from "markdown-it";

export function paragraphs(prose: string): string[] {
  return prose
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** A run of a paragraph's text with the emphasis it is shown in; `"\n"` runs are line breaks. */
export interface Run {
  text: string;
  em: boolean;
  strong: boolean;
}

// Only the inline rules prose needs: no links, images, code, entities or HTML.
const md = new MarkdownIt("zero", { html: false, typographer: true }).enable(["emphasis", "escape", "replacements", "smartquotes", "text_join", "newline"]);

/** The runs of one paragraph, typographic quotes and dashes applied. */
export function inlineRuns(paragraph: string): Run[] {
  const runs: Run[] = [];
  let em = 0;
  let strong = 0;
  const push = (text: string) => {
    const last = runs[runs.length - 1];
    if (last && last.em === em > 0 && last.strong === strong > 0) last.text += text;
    else runs.push({ text, em: em > 0, strong: strong > 0 });
  };
  for (const token of md.parseInline(paragraph, {})[0]?.children ?? []) {
    switch (token.type) {
      case "em_open":
        em += 1;
        break;
      case "em_close":
        em -= 1;
        break;
      case "strong_open":
        strong += 1;
        break;
      case "strong_close":
        strong -= 1;
        break;
      case "softbreak":
      case "hardbreak":
        push("\n");
        break;
      default:
        push(token.content);
    }
  }
  return runs;
}

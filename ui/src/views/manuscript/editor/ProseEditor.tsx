// A CodeMirror 6 editor for a scene's prose: undo history, find/replace (the search panel,
// Ctrl+F / Ctrl+H), browser spellcheck, line wrapping and Markdown emphasis shown styled.
// Ctrl+S saves; Escape cancels unless a CodeMirror panel (find/replace) is open, where it
// closes the panel first.
import { useEffect, useRef } from "react";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { markdown } from "@codemirror/lang-markdown";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { highlightSelectionMatches, openSearchPanel, search, searchKeymap, searchPanelOpen } from "@codemirror/search";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { tags } from "@lezer/highlight";

const emphasis = HighlightStyle.define([
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "bold" },
  { tag: tags.processingInstruction, color: "var(--muted)" },
]);

interface Props {
  initial: string;
  /** BCP 47 language for the browser's spellcheck. */
  lang: string;
  label: string;
  onChange: (text: string) => void;
  onSave: () => void;
  onCancel: () => void;
  /** Where the cursor is, as an index into the text (UTF-16 units), whenever it moves. */
  onCursor?: (at: number) => void;
}

export function ProseEditor({ initial, lang, label, onChange, onSave, onCancel, onCursor }: Props) {
  const host = useRef<HTMLDivElement>(null);
  // The callbacks change every render; the editor is built once and reads them through a ref.
  const handlers = useRef({ onChange, onSave, onCancel, onCursor });
  useEffect(() => {
    handlers.current = { onChange, onSave, onCancel, onCursor };
  });

  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          history(),
          search({ top: true }),
          highlightSelectionMatches(),
          markdown(),
          syntaxHighlighting(emphasis),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ spellcheck: "true", lang, autocorrect: "on", "aria-label": label }),
          placeholder("The scene's prose"),
          keymap.of([
            { key: "Mod-s", preventDefault: true, run: () => (handlers.current.onSave(), true) },
            {
              key: "Escape",
              run: (v) => {
                if (searchPanelOpen(v.state)) return false;
                handlers.current.onCancel();
                return true;
              },
            },
            { key: "Mod-h", preventDefault: true, run: openSearchPanel },
            ...searchKeymap,
            ...historyKeymap,
            ...defaultKeymap,
            indentWithTab,
          ]),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
            if (u.docChanged || u.selectionSet) handlers.current.onCursor?.(u.state.selection.main.head);
          }),
        ],
      }),
    });
    view.focus();
    return () => view.destroy();
    // The editor is created once per mount: `initial` seeds it, later edits live in CodeMirror.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return <div ref={host} className="scene-editor reading" data-testid="scene-editor" />;
}

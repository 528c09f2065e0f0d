// The UI suite: the real app in headless Chromium behind a mocked IPC, view by view. One
// process and one browser for all of it; each view's tests live in ./views/*.mjs (each can
// also be run alone: node --test ui/tests/views/write.mjs). words.mjs walks them all for the
// engine's words.
import "./views/shell.mjs";
import "./views/library.mjs";
import "./views/write.mjs";
import "./views/manuscript.mjs";
import "./views/shape.mjs";
import "./views/editor.mjs";
import "./views/search.mjs";
import "./views/graph.mjs";
import "./views/timeline.mjs";
import "./views/loops.mjs";
import "./views/settings.mjs";
import "./views/providers.mjs";
import "./views/history.mjs";
import "./views/replace.mjs";
import "./views/import.mjs";
import "./views/dialogs.mjs";
import "./views/goals.mjs";
import "./views/bible.mjs";
import "./views/words.mjs";

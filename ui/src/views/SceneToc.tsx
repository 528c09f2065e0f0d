// The manuscript's table of contents: one entry per scene; a click jumps to the scene.
import type { Scene } from "../lib/types";

export function SceneToc({ scenes, onJump }: { scenes: Scene[]; onJump: (tick: number) => void }) {
  return (
    <nav className="toc" aria-label="Table of contents">
      <h2 className="toc-head">Contents</h2>
      <ol>
        {scenes.map((s) => (
          <li key={s.id}>
            <button type="button" className="toc-item" data-testid="toc-item" data-tick={s.tick} onClick={() => onJump(s.tick)}>
              <span className="toc-number">{s.tick}</span>
              <span className="toc-title">{s.title || "Untitled"}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

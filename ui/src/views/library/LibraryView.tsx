// Library: recent novels, Open folder…, the New novel form, and Import (a novel from an
// existing manuscript, or the open novel's unfinished import resumed).
import { useState } from "react";
import { commands } from "../../bindings";
import { Icon } from "../../components/Icon";
import { LoadError } from "../../components/LoadError";
import { call, errorText } from "../../lib/api";
import { chooseFolder } from "../../lib/dialogs";
import { useNovel } from "../../lib/novel";
import { useToast } from "../../lib/toast";
import type { Overview } from "../../lib/types";
import { formDraft } from "../../lib/newNovel";
import { useLoad } from "../../lib/useLoad";
import { ImportPanel } from "./ImportPanel";
import { NewNovelForm } from "./NewNovelForm";
import { RecentList } from "./RecentList";
import "../../styles/library.css";

interface Props {
  onOpened: () => void;
  /** Keeps the Library shown when a novel opens under it (an import in progress). */
  onStay: () => void;
  /** Opens Settings (the New novel form's way to connect a model). */
  goSettings: () => void;
}

export function LibraryView({ onOpened, onStay, goSettings }: Props) {
  const { overview, setOverview, version } = useNovel();
  const notify = useToast();
  const recent = useLoad(`recent:${version}`, () => call(commands.recentNovels()));
  const [formOpen, setFormOpen] = useState<boolean | null>(null);
  const [importOpen, setImportOpen] = useState<false | "new" | "resume">(false);
  const importing = useLoad(`import:${version}`, () => call(commands.importStatus()));
  const unfinished = importing.data && !importing.data.finished ? importing.data : null;
  const [busyPath, setBusyPath] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // With nothing to reopen, the form is the natural first step; a form left half typed (for a
  // visit to Settings) is shown again as it was.
  const [drafted] = useState(() => formDraft() !== null);
  const showForm = formOpen ?? (drafted || (recent.data !== undefined && recent.data.length === 0 && !overview));

  const opened = (o: Overview, verb: string) => {
    setOverview(o);
    notify(`${verb} “${o.foundation.title}”`);
    onOpened();
  };

  const open = async (path: string) => {
    setBusyPath(path);
    setError(null);
    try {
      opened(await call(commands.openNovel(path)), "Opened");
    } catch (e) {
      setError(errorText(e));
      recent.reload();
    } finally {
      setBusyPath(null);
    }
  };

  const openFolder = async () => {
    setError(null);
    const dir = await chooseFolder("Open a novel folder").catch((e: unknown) => {
      setError(errorText(e));
      return null;
    });
    if (dir) await open(dir);
  };

  const forget = async (path: string) => {
    try {
      await call(commands.forgetRecentNovel(path));
    } catch (e) {
      setError(errorText(e));
    }
    recent.reload();
  };

  return (
    <div className="library">
      <section className="library-side">
        <div className="section-head">
          <h2>Your novels</h2>
          <div className="section-actions">
            <button type="button" className="btn btn-quiet" data-testid="open-folder" onClick={openFolder}>
              <Icon name="folder" /> Open folder…
            </button>
            <button
              type="button"
              className="btn btn-quiet"
              data-testid="import-manuscript"
              onClick={() => {
                setFormOpen(false);
                setImportOpen("new");
              }}
            >
              <Icon name="export" /> Import…
            </button>
            <button
              type="button"
              className="btn btn-primary"
              data-testid="new-novel"
              onClick={() => {
                setImportOpen(false);
                setFormOpen(true);
              }}
            >
              <Icon name="plus" /> New novel
            </button>
          </div>
        </div>
        {error && (
          <p className="notice notice-error" role="alert" data-testid="library-error">
            {error}
          </p>
        )}
        {recent.error !== undefined && <LoadError error={recent.error} onRetry={recent.reload} />}
        {recent.data && recent.data.length > 0 ? (
          <RecentList
            recent={recent.data}
            currentPath={overview?.path ?? null}
            busyPath={busyPath}
            onOpen={open}
            onForget={forget}
          />
        ) : (
          recent.data && (
            <p className="muted library-empty">
              No novels yet. Start one with <strong>New novel</strong>, or open an existing novel folder.
            </p>
          )
        )}
      </section>
      {importOpen ? (
        <ImportPanel
          key={importOpen}
          resume={importOpen === "resume" ? unfinished : null}
          onStarted={onStay}
          onImported={(o, done) => {
            setOverview(o);
            if (done) {
              setImportOpen(false);
              opened(o, "Imported");
            }
          }}
          onCancel={() => setImportOpen(false)}
        />
      ) : showForm ? (
        <NewNovelForm onCreated={(o) => opened(o, "Created")} onCancel={() => setFormOpen(false)} onSettings={goSettings} />
      ) : (
        <section className="library-welcome">
          <h2>{overview ? overview.foundation.title : "Write a novel, one scene at a time"}</h2>
          {overview ? (
            <>
              <p className="muted">{overview.foundation.premise}</p>
              {unfinished && (
                <p className="notice" data-testid="import-unfinished">
                  The import of {unfinished.source} stopped after {unfinished.done} of {unfinished.total} scenes.{" "}
                  <button type="button" className="btn btn-quiet" data-testid="import-open-resume" onClick={() => setImportOpen("resume")}>
                    Resume import…
                  </button>
                </p>
              )}
              <button type="button" className="btn btn-primary" onClick={onOpened}>
                Continue writing
              </button>
            </>
          ) : (
            <p className="muted">
              Plant a premise, a protagonist and a place. The agent plans each scene, keeps track of characters,
              places and open threads, writes, checks its work and remembers — you read, steer and edit.
            </p>
          )}
        </section>
      )}
    </div>
  );
}

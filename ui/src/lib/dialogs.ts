// Native dialogs (tauri-plugin-dialog): choose a folder, choose where to save the export.
import { open, save } from "@tauri-apps/plugin-dialog";

export async function chooseFolder(title: string): Promise<string | null> {
  const picked = await open({ directory: true, multiple: false, title });
  if (Array.isArray(picked)) return picked[0] ?? null;
  return picked;
}

export async function chooseMarkdownFile(defaultName: string): Promise<string | null> {
  return save({
    title: "Export the manuscript",
    defaultPath: defaultName,
    filters: [{ name: "Markdown", extensions: ["md"] }],
  });
}

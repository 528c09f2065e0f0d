// Native dialogs (tauri-plugin-dialog) opened from the page: choose a folder. (The export's
// save dialog is opened by the shell itself, so the page never names a file to write.)
import { open } from "@tauri-apps/plugin-dialog";

export async function chooseFolder(title: string): Promise<string | null> {
  const picked = await open({ directory: true, multiple: false, title });
  if (Array.isArray(picked)) return picked[0] ?? null;
  return picked;
}

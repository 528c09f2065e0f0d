// The one way the UI calls Rust: unwraps the bindings' `Result` into a value or a thrown
// `CommandError` carrying the typed `AppError` (whose message is written for the writer).
import type { AppError } from "../bindings";

type Result<T> = { status: "ok"; data: T } | { status: "error"; error: AppError };

export class CommandError extends Error {
  readonly error: AppError;

  constructor(error: AppError) {
    super(error.message);
    this.error = error;
  }
}

export async function call<T>(pending: Promise<Result<T>>): Promise<T> {
  const result = await pending;
  if (result.status === "error") throw new CommandError(result.error);
  return result.data;
}

/** The typed error behind `e`; anything unexpected becomes a `storage`-kind error with its text. */
export function appError(e: unknown): AppError {
  if (e instanceof CommandError) return e.error;
  const message = e instanceof Error ? e.message : typeof e === "string" ? e : "Something went wrong.";
  return { kind: "storage", message };
}

/** A message a writer can read, whatever was thrown. */
export function errorText(e: unknown): string {
  return appError(e).message || "Something went wrong.";
}

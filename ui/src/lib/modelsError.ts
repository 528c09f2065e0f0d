// Why a server's models could not be listed, in one sentence. The engine's message is a chain
// ("profile `x` of …: cannot list the models at URL: no answer (connection failed: client
// error (Connect): tcp connect error: …); is the server running…") that names every layer;
// the writer reads what to do, and the chain stays one click away under "Details".

/** The address asked, without the `/models` the lister adds. */
function address(message: string): string | null {
  const url = /\b(https?:\/\/[^\s;,)]+?)(?:\/models)?:?(?=[\s;,)]|$)/.exec(message)?.[1];
  return url ?? null;
}

/** One sentence saying what went wrong and what to check. */
export function modelsProblem(message: string): string {
  const at = address(message);
  const server = at ? `the server at ${at}` : "the server";
  const Server = server.charAt(0).toUpperCase() + server.slice(1);
  if (/refused the API key|HTTP 40[13]\b/.test(message)) return `${Server} refused the API key: check the key of this provider.`;
  if (/no answer \(timed out/.test(message)) return `${Server} did not answer in time: is it running, and is the address right?`;
  if (/no answer \(connection failed|connection refused/i.test(message)) return `Nothing answered at ${at ?? "the server's address"}: is the server running, and is the address right?`;
  const status = /HTTP (\d{3})\b/.exec(message)?.[1];
  if (status) return `${Server} answered with an error (HTTP ${status}) instead of its models.`;
  if (/not JSON/.test(message)) return `${Server} did not answer with a list of models: is the address right?`;
  // A message that is one sentence already (a profile's problem) is read as it is.
  if (!/: .*: /.test(message)) return message;
  return `${Server} could not list its models.`;
}

// The Solver's two calls to the server.

export class SolveError extends Error {}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

export async function solve(body, fetchImpl = fetch) {
  return (await solveAnswer(body, fetchImpl))?.plays ?? [];
}

// The whole answer: with `all`, {fields, plays, count}.
export async function solveAnswer(body, fetchImpl = fetch) {
  let response;
  try {
    response = await fetchImpl("/api/solve", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new SolveError("The solver could not be reached; check the connection and try again.");
  }
  const payload = await readJson(response);
  if (!response.ok) {
    throw new SolveError(payload?.error?.message ?? `The solver answered ${response.status}.`);
  }
  return payload;
}

export async function fetchRules(fetchImpl = fetch) {
  const response = await fetchImpl("/api/rules");
  if (!response.ok) throw new Error(`The rules could not be loaded (${response.status}).`);
  return response.json();
}

// "Get a Hint": the best play revealed a step at a time, word last.

export const HINT_STEPS = 3;

export function hintLines(play, step) {
  if (!play) return ["No play fits this board and rack."];
  const lines = [`The best play scores ${play.score} and runs ${play.direction}.`];
  if (step >= 2) {
    lines.push(`It starts at row ${play.row}, column ${play.col} (${play.word.length} letters).`);
  }
  if (step >= 3) lines.push(`The word is ${play.word}.`);
  return lines;
}

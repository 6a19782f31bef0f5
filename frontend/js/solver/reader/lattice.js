// Finds the 15×15 board in a screenshot from its structure alone: sixteen evenly
// spaced lines of colour change across and sixteen down, the same spacing both
// ways. No palette, no font: only where the squares' edges are.

import { shrink } from "./pixels.js";

export const SIZE = 15;
const WORK_SIDE = 900; // the longer side the search runs at
const EDGE_CAP = 120; // one strong edge counts no more than a faint grid line twice over
const MIN_CONTRAST = 1.35;
const MIN_LINES = 14; // of 16: an outer line may be lost against a frame of the same colour

function edgeMaps(small) {
  const { width, height, rgb } = small;
  const across = new Uint8Array(width * height); // change from x to x+1
  const down = new Uint8Array(width * height); // change from y to y+1
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const o = i * 3;
      if (x + 1 < width) {
        const gap = Math.abs(rgb[o] - rgb[o + 3]) + Math.abs(rgb[o + 1] - rgb[o + 4]) + Math.abs(rgb[o + 2] - rgb[o + 5]);
        across[i] = Math.min(EDGE_CAP, gap);
      }
      if (y + 1 < height) {
        const p = o + width * 3;
        const gap = Math.abs(rgb[o] - rgb[p]) + Math.abs(rgb[o + 1] - rgb[p + 1]) + Math.abs(rgb[o + 2] - rgb[p + 2]);
        down[i] = Math.min(EDGE_CAP, gap);
      }
    }
  }
  return { across, down };
}

// Edge strength per column (of `across`, over rows from..to) or per row (of `down`).
function profile(map, width, height, vertical, from, to) {
  const out = new Float64Array(vertical ? width : height);
  const lo = Math.max(0, Math.floor(from));
  const hi = Math.min(vertical ? height : width, Math.ceil(to));
  if (vertical) {
    for (let y = lo; y < hi; y += 1) {
      const row = y * width;
      for (let x = 0; x < width; x += 1) out[x] += map[row + x];
    }
  } else {
    for (let y = 0; y < height; y += 1) {
      const row = y * width;
      let sum = 0;
      for (let x = lo; x < hi; x += 1) sum += map[row + x];
      out[y] = sum;
    }
  }
  return out;
}

function widened(values, reach) {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i += 1) {
    let best = 0;
    for (let j = Math.max(0, i - reach); j <= Math.min(values.length - 1, i + reach); j += 1) {
      if (values[j] > best) best = values[j];
    }
    out[i] = best;
  }
  return out;
}

// A comb of 16 teeth (the lines) against 15 gaps (the squares' middles): the
// spacing and start where lines stand out most from what lies between them.
// Halving or doubling the spacing puts teeth on middles or gaps on lines, so
// only the true spacing scores well.
function comb(values, pitches, starts) {
  let best = { score: -Infinity, start: 0, pitch: 0, contrast: 0 };
  for (const pitch of pitches) {
    const span = pitch * SIZE;
    for (const start of starts(span)) {
      if (start < 0 || start + span >= values.length) continue;
      let teeth = 0;
      let gaps = 0;
      for (let k = 0; k <= SIZE; k += 1) teeth += values[Math.round(start + k * pitch)];
      for (let k = 0; k < SIZE; k += 1) gaps += values[Math.round(start + (k + 0.5) * pitch)];
      teeth /= SIZE + 1;
      gaps /= SIZE;
      const score = teeth - gaps;
      if (score > best.score) best = { score, start, pitch, contrast: teeth / (gaps + 1) };
    }
  }
  return best;
}

function range(from, to, step) {
  const out = [];
  for (let v = from; v <= to + 1e-9; v += step) out.push(v);
  return out;
}

function search(values, minPitch, maxPitch) {
  const coarse = comb(widened(values, 2), range(minPitch, maxPitch, 0.25), (span) => range(0, values.length - span - 1, 1));
  if (!coarse.pitch) return coarse;
  const near = widened(values, 1);
  return comb(
    near,
    range(coarse.pitch - 0.3, coarse.pitch + 0.3, 0.02),
    () => range(coarse.start - 3, coarse.start + 3, 0.5),
  );
}

// Each line moved to the strongest edge near where the even spacing puts it
// (a page's grid rounds squares to whole pixels, so spacing is not exact).
function settle(values, found) {
  const reach = Math.max(1, Math.round(found.pitch * 0.15));
  const lines = [];
  for (let k = 0; k <= SIZE; k += 1) {
    const at = Math.round(found.start + k * found.pitch);
    let best = at;
    for (let i = Math.max(0, at - reach); i <= Math.min(values.length - 1, at + reach); i += 1) {
      if (values[i] > values[best]) best = i;
    }
    lines.push(best);
  }
  return lines;
}

// How well the other direction's lines run through each of the 15 bands between
// `found`'s lines (rows when `byRow`): per band, how many of those 16 lines stand
// out from the squares' middles beside them. Text or a panel beside the board has
// an edge here and there, never the whole row of lines.
function support(map, width, found, lines, byRow) {
  const value = (a, b) => (byRow ? map[b * width + a] : map[a * width + b]) ?? 0;
  let total = 0;
  for (let k = 0; k < SIZE; k += 1) {
    const from = Math.round(found.start + k * found.pitch + found.pitch * 0.2);
    const to = Math.round(found.start + (k + 1) * found.pitch - found.pitch * 0.2);
    const on = new Float64Array(lines.length);
    let off = 0;
    for (let t = from; t < to; t += 1) {
      for (let i = 0; i < lines.length; i += 1) {
        const at = lines[i];
        on[i] += Math.max(value(at, t), value(at - 1, t), value(at + 1, t));
        if (i < lines.length - 1) off += value(Math.round((lines[i] + lines[i + 1]) / 2), t);
      }
    }
    off /= lines.length - 1;
    const present = on.filter((v) => v > off * 1.5 + (to - from)).length;
    if (present >= 12) total += present;
  }
  return total;
}

function bestShift(map, width, found, lines, byRow) {
  const length = map.length / width;
  const extent = byRow ? length : width;
  let best = found.start;
  let most = -1;
  for (const shift of [0, -1, 1, -2, 2]) {
    const start = found.start + shift * found.pitch;
    if (start < 0 || start + found.pitch * SIZE >= extent) continue;
    const bands = support(map, width, { ...found, start }, lines, byRow);
    if (bands > most) {
      most = bands;
      best = start;
    }
  }
  return best;
}

function linesSeen(values, found) {
  const lines = settle(values, found);
  const middles = [];
  for (let k = 0; k < SIZE; k += 1) middles.push(values[Math.round((lines[k] + lines[k + 1]) / 2)]);
  middles.sort((a, b) => a - b);
  const typical = middles[Math.floor(SIZE / 2)];
  return lines.filter((at) => values[at] > typical * 1.3 + 1).length;
}

export class NoBoard extends Error {}

export function workingCopy(image) {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / WORK_SIDE));
  return { small: shrink(image, factor), factor };
}

// The board's 16 column lines and 16 row lines in the image's own pixels.
// `small` is the image shrunk by `factor` (workingCopy).
export function locateBoard(small, factor) {
  const { width, height } = small;
  const { across, down } = edgeMaps(small);
  const side = Math.min(width, height);
  let minPitch = Math.max(4, (side * 0.3) / SIZE);
  let maxPitch = (side - 2) / SIZE;
  if (maxPitch <= minPitch) throw new NoBoard("too small");

  // First over the whole image, then over the band the other direction found.
  let cols = search(profile(across, width, height, true, 0, height), minPitch, maxPitch);
  let rows = search(profile(down, width, height, false, 0, width), minPitch, maxPitch);
  let colValues;
  let rowValues;
  for (let round = 0; round < 2; round += 1) {
    // Squares are square: each direction may take the other's spacing.
    minPitch = Math.max(4, Math.min(cols.pitch, rows.pitch) * 0.9);
    maxPitch = Math.min((side - 2) / SIZE, Math.max(cols.pitch, rows.pitch) * 1.1);
    colValues = profile(across, width, height, true, rows.start, rows.start + rows.pitch * SIZE + 1);
    rowValues = profile(down, width, height, false, cols.start, cols.start + cols.pitch * SIZE + 1);
    cols = search(colValues, minPitch, maxPitch);
    rows = search(rowValues, minPitch, maxPitch);
    if (!cols.pitch || !rows.pitch) throw new NoBoard("no lattice");
  }
  // A comb can lock one square off, onto a strong edge just outside the board (the
  // rack's top, a panel): the board's lines cross every one of its rows and columns.
  rows = { ...rows, start: bestShift(across, width, rows, settle(colValues, cols), true) };
  cols = { ...cols, start: bestShift(down, width, cols, settle(rowValues, rows), false) };
  const squareness = Math.abs(cols.pitch - rows.pitch) / Math.max(cols.pitch, rows.pitch);
  if (squareness > 0.05 || cols.contrast < MIN_CONTRAST || rows.contrast < MIN_CONTRAST) {
    throw new NoBoard("no square lattice");
  }
  // Every line of the board is there, not one in three (a 5×5 grid fits a comb of 16 too).
  if (linesSeen(colValues, cols) < MIN_LINES || linesSeen(rowValues, rows) < MIN_LINES) {
    throw new NoBoard("lines missing");
  }
  // An edge between x and x+1 in the shrunk image is the boundary at x+1.
  const toImage = (line) => (line + 1) * factor;
  return {
    xs: settle(colValues, cols).map(toImage),
    ys: settle(rowValues, rows).map(toImage),
    pitch: ((cols.pitch + rows.pitch) / 2) * factor,
    contrast: Math.min(cols.contrast, rows.contrast),
  };
}

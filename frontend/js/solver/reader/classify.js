// The letter classifier: a small two-layer network over a normalised glyph
// (marks.js), trained by scripts/train_reader.py on letters drawn in many fonts.
// Its last class, MARK, is anything that is not a letter (a star, a digit).

import { GLYPH } from "./marks.js";
import { MODEL } from "./model.js";

export const MARK = "*";

function bytes(base64) {
  if (typeof atob === "function") return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Uint8Array(Buffer.from(base64, "base64"));
}

// int8 weights with one scale per layer: a quarter of the floats' download.
function layer(packed) {
  const raw = new Int8Array(bytes(packed.weights).buffer);
  const weights = Float32Array.from(raw, (v) => v * packed.scale);
  return { weights, bias: Float32Array.from(packed.bias), outputs: packed.bias.length };
}

let net = null;

function network(model) {
  if (model !== MODEL) return { classes: model.classes, layers: model.layers.map(layer) };
  net ??= { classes: MODEL.classes, layers: MODEL.layers.map(layer) };
  return net;
}

// Probabilities over the classes for one glyph; `model` is for the training script.
export function probabilities(glyph, model = MODEL) {
  const { layers } = network(model);
  let input = glyph;
  layers.forEach((l, index) => {
    const size = input.length;
    const out = new Float32Array(l.outputs);
    for (let o = 0; o < l.outputs; o += 1) {
      let sum = l.bias[o];
      const row = o * size;
      for (let i = 0; i < size; i += 1) sum += l.weights[row + i] * input[i];
      out[o] = index < layers.length - 1 ? Math.max(0, sum) : sum;
    }
    input = out;
  });
  let top = -Infinity;
  for (const v of input) top = Math.max(top, v);
  let total = 0;
  const probs = Array.from(input, (v) => {
    const e = Math.exp(v - top);
    total += e;
    return e;
  });
  return probs.map((p) => p / total);
}

const best = (probs) => probs.reduce((b, p, i) => (p > probs[b] ? i : b), 0);

export function classify(glyph, model = MODEL) {
  const probs = probabilities(glyph, model);
  const i = best(probs);
  return { letter: network(model).classes[i], confidence: probs[i] };
}

export const GLYPH_SIZE = GLYPH * GLYPH;

// The glyph moved a pixel: where a letter's box is found can be a pixel off either way.
function shifted(glyph, dx, dy) {
  const out = new Float32Array(glyph.length);
  for (let y = 0; y < GLYPH; y += 1) {
    for (let x = 0; x < GLYPH; x += 1) {
      const sx = x - dx;
      const sy = y - dy;
      if (sx >= 0 && sy >= 0 && sx < GLYPH && sy < GLYPH) out[y * GLYPH + x] = glyph[sy * GLYPH + sx];
    }
  }
  return out;
}

// Strokes a little bolder or a little thinner: the neighbourhood's max, or its min.
function stroked(glyph, pick) {
  const out = new Float32Array(glyph.length);
  for (let y = 0; y < GLYPH; y += 1) {
    for (let x = 0; x < GLYPH; x += 1) {
      let v = glyph[y * GLYPH + x];
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const nx = x + dx;
        const ny = y + dy;
        const n = nx >= 0 && ny >= 0 && nx < GLYPH && ny < GLYPH ? glyph[ny * GLYPH + nx] : 0;
        v = pick(v, n);
      }
      out[y * GLYPH + x] = (glyph[y * GLYPH + x] + v) / 2;
    }
  }
  return out;
}

const variants = (glyph) => [
  shifted(glyph, 1, 0),
  shifted(glyph, -1, 0),
  shifted(glyph, 0, 1),
  shifted(glyph, 0, -1),
  stroked(glyph, Math.max),
  stroked(glyph, Math.min),
];

// How sure the network is of `letter` for this glyph moved a pixel each way and
// drawn a little bolder and thinner: the mean of what it gives the letter.
export function steadiness(glyph, letter) {
  const k = MODEL.classes.indexOf(letter);
  const all = variants(glyph).map((g) => probabilities(g)[k]);
  return all.reduce((a, b) => a + b, 0) / all.length;
}

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
export function classify(glyph, model = MODEL) {
  const { classes, layers } = network(model);
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
  let best = 0;
  for (let i = 0; i < probs.length; i += 1) {
    probs[i] /= total;
    if (probs[i] > probs[best]) best = i;
  }
  return { letter: classes[best], confidence: probs[best] };
}

export const GLYPH_SIZE = GLYPH * GLYPH;

// Small helpers over an RGBA image {width, height, data} (ImageData's shape).

// Colour distance as the eye roughly sees it on a screen: the sum of channel gaps.
export function colourGap(a, b) {
  return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
}

// Box averages of step×step blocks of the image, from (left, top), width×height blocks.
function average(image, left, top, width, height, step) {
  const rgb = new Float32Array(width * height * 3);
  const src = image.data;
  const area = step * step;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < step; dy += 1) {
        let i = ((top + y * step + dy) * image.width + left + x * step) * 4;
        for (let dx = 0; dx < step; dx += 1, i += 4) {
          r += src[i];
          g += src[i + 1];
          b += src[i + 2];
        }
      }
      const o = (y * width + x) * 3;
      rgb[o] = r / area;
      rgb[o + 1] = g / area;
      rgb[o + 2] = b / area;
    }
  }
  return { width, height, rgb, step };
}

// The image shrunk by a whole factor: enough detail to find the board's lines,
// at a cost that does not grow with the phone's resolution.
export function shrink(image, factor) {
  return average(image, 0, 0, Math.floor(image.width / factor), Math.floor(image.height / factor), factor);
}

// A rectangle of the full image as an RGB grid of about `cap` to 2×`cap` pixels
// a side, so every square costs the same to read at any resolution.
export function crop(image, x0, y0, x1, y1, cap = 44) {
  const left = Math.max(0, Math.round(x0));
  const top = Math.max(0, Math.round(y0));
  const right = Math.min(image.width, Math.round(x1));
  const bottom = Math.min(image.height, Math.round(y1));
  const step = Math.max(1, Math.floor(Math.min(right - left, bottom - top) / cap));
  const width = Math.max(0, Math.floor((right - left) / step));
  const height = Math.max(0, Math.floor((bottom - top) / step));
  return average(image, left, top, width, height, step);
}

// The per-channel median of a grid: a square's face colour, whatever is written on it.
const counts = new Uint32Array(256 * 3);
export function medianColour(grid) {
  const n = grid.width * grid.height;
  const { rgb } = grid;
  counts.fill(0);
  for (let i = 0; i < n; i += 1) {
    counts[rgb[i * 3] | 0] += 1;
    counts[256 + (rgb[i * 3 + 1] | 0)] += 1;
    counts[512 + (rgb[i * 3 + 2] | 0)] += 1;
  }
  const out = [0, 0, 0];
  for (let c = 0; c < 3; c += 1) {
    let seen = 0;
    for (let v = 0; v < 256; v += 1) {
      seen += counts[c * 256 + v];
      if (seen * 2 >= n) {
        out[c] = v;
        break;
      }
    }
  }
  return out;
}

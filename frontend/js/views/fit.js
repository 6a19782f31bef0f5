// How a TV lays out a race's boards: the number of columns that makes every board as
// large as it can be while all of them, with their captions, fit on the screen at once.
export function fitBoards(count, width, height, { gap = 24, caption = 40 } = {}) {
  let best = { cols: 1, size: 0 };
  for (let cols = 1; cols <= Math.max(1, count); cols++) {
    const rows = Math.ceil(count / cols);
    const across = (width - gap * (cols - 1)) / cols;
    const down = (height - gap * (rows - 1)) / rows - caption;
    const size = Math.floor(Math.min(across, down));
    if (size > best.size) best = { cols, size };
  }
  return best;
}

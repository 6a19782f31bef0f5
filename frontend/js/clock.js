// The server's clock decides. A reading {elapsed_ms, running, since, at} holds the time
// banked and the server time `since` it has run on (null while stopped), so a stop or a
// start changes the reading itself and no diff can leave a stale time on screen. `at`
// is the server's time when a whole view was made: our offset to the server's clock.

export const offsetFrom = (serverAt, localNow) => serverAt - localNow;

export const serverNow = (localNow, offset) => localNow + offset;

export function elapsed(reading, now) {
  if (!reading) return 0;
  if (reading.since == null) return reading.elapsed_ms;
  return reading.elapsed_ms + Math.max(0, now - reading.since);
}

// Race: the time left only matters in the last minute of a limit.
export function timeLeft(limitMs, reading, now) {
  if (limitMs == null) return null;
  return Math.max(0, limitMs - elapsed(reading, now));
}

export const showTimeLeft = (left) => left != null && left <= 60_000;

export function formatClock(ms) {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// Left-to-count-down clocks round up, so "0:00" is only shown once time is out.
export const formatLeft = (ms) => formatClock(Math.ceil(Math.max(0, ms) / 1000) * 1000);

// A tick is worth sending once per due time, and again after `retryMs` if the
// server has not moved on (a lost tick must not leave a room stuck).
export function tickDue(dueAt, now, lastTick, retryMs = 5000) {
  if (dueAt == null || now < dueAt) return false;
  if (!lastTick || lastTick.due !== dueAt) return true;
  return now - lastTick.sent >= retryMs;
}

// Whether a game's socket is still alive. A phone in a tunnel keeps its socket "open":
// no close ever comes, the frames sent into it vanish and nothing comes back. So while
// a game is open the page asks (a numbered ping, which the server acknowledges) whenever
// it has been quiet for a moment, and a connection that has answered nothing at all for
// DEAD_MS since something was sent is dead. Pure: the socket feeds it the times.

export const PING_MS = 3000; // quiet this long: ask
export const DEAD_MS = 8000; // no answer of any kind this long after sending: dead
export const CONNECT_MS = 10000; // a socket still opening after this never will
export const OFFLINE_AFTER = 3; // attempts in a row that never got a welcome: say offline

// `awaiting` is when the first frame went out since the last one came in (null when
// everything sent has been followed by something heard).
export function heartbeat({ now, lastSent, lastHeard, awaiting }) {
  if (awaiting != null) return now - awaiting >= DEAD_MS ? 'dead' : 'wait';
  return now - Math.max(lastSent, lastHeard) >= PING_MS ? 'ping' : 'wait';
}

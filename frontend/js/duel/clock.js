// The Duel's two chess clocks, drawn between server messages. Pure. The server
// sends each seat's `time_left` as of its own time `now`; only the seat to move
// runs, so its clock is `time_left` less the local time since the message came.
export { tickDue } from '../clock.js';

export const LOW_MS = 30_000; // a clock this low or under shows red

// `received`: local ms when the game message arrived.
export function clocksAt(game, received, localNow) {
  if (!game) return [null, null];
  const running = game.result == null && game.turn != null;
  const since = Math.max(0, localNow - received);
  return game.seats.map((seat, i) => {
    if (seat.time_left == null) return null;
    // `running` is the server's word (a bot's clock stands still while it waits).
    const runs = seat.running ?? i === game.turn;
    const left = running && runs && i === game.turn && !seat.out_of_time ? seat.time_left - since : seat.time_left;
    return Math.max(0, left);
  });
}

// Server time now, estimated from the last message's `now` and the local time since.
export const serverNowAt = (game, received, localNow) => (game?.now ?? received) + (localNow - received);

// mm:ss, rounded up so 0:00 only shows once the time is out.
export function mmss(ms) {
  if (ms == null) return '';
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, '0');
  return `${m}:${s}`;
}

export const isLow = (ms) => ms != null && ms <= LOW_MS;

// The Duel lobby's words and links. Pure: nothing here touches the page.

const MINUTE = 60_000;

// The time limits a game may have (per player), as the server takes them.
export const LIMITS = Object.freeze([
  { ms: 3 * MINUTE, label: '3 min' },
  { ms: 5 * MINUTE, label: '5 min' },
  { ms: 10 * MINUTE, label: '10 min' },
  { ms: 20 * MINUTE, label: '20 min' },
  { ms: null, label: 'Unlimited' },
]);

export const DEFAULT_LIMIT = 5 * MINUTE;

export const LEVELS = Object.freeze(['easy', 'medium', 'hard']);

export function limitLabel(ms) {
  return LIMITS.find((l) => l.ms === ms)?.label ?? (ms == null ? 'Unlimited' : `${Math.round(ms / MINUTE)} min`);
}

// The limit chosen in the page's control: its value is the ms or "" for Unlimited.
export const limitFromValue = (value) => (value === '' || value == null || value === 'null' ? null : Number(value));
export const valueFromLimit = (ms) => (ms == null ? '' : String(ms));

// A private game's link: /duel.html#seek=<id>&token=<token>.
export function seekLink(base, mine) {
  if (!mine?.token) return null;
  const page = new URL('duel.html', base);
  page.hash = `seek=${encodeURIComponent(mine.id)}&token=${encodeURIComponent(mine.token)}`;
  return page.href;
}

// What a link's hash asks for: {seek, token} or null.
export function parseSeekHash(hash) {
  const params = new URLSearchParams(String(hash ?? '').replace(/^#/, ''));
  const seek = params.get('seek');
  if (!seek) return null;
  return { seek, token: params.get('token') || null };
}

// Who you are, for the lobby's header: guests play at 1000, unrated.
export function whoAmI(account) {
  if (!account) return { name: 'Guest', rating: 1000, note: 'guest, not rated', guest: true };
  return { name: account.name, rating: account.rating, note: provisionalNote(account), guest: false };
}

// Beside a provisional rating: how far along its first rated games the account is.
export function provisionalNote(account) {
  if (!account?.provisional) return '';
  const games = account.games ?? 0;
  return `provisional, ${games} rated game${games === 1 ? '' : 's'} so far`;
}

// The list as it shows: your own waiting game is not one you can Challenge.
export function challengeable(lobby) {
  const mine = lobby?.mine?.id;
  return (lobby?.seeks ?? []).filter((s) => s.id !== mine);
}

// Names and passwords as the server takes them (so the form can say why at once).
export function checkAccount(name, password) {
  if (!/^[A-Za-z0-9_-]{3,20}$/.test(name ?? '')) return 'A name is 3 to 20 letters, digits, _ or -.';
  if ((password ?? '').length < 8 || password.length > 128) return 'A password is 8 to 128 characters.';
  return null;
}

// Before a game starts, whether it will count: only two signed-in players' games do.
export function ratedNote(account) {
  return account
    ? 'Rated when another signed-in player takes your game. Games against guests or bots are not rated.'
    : 'As a guest your games are not rated. Sign in to get a rating.';
}

// A waiting game's tag in the list, for the player looking at it (the server's will_rate).
export const seekRatedLabel = (seek) => (seek.will_rate ? 'rated' : 'unrated');

// Lobby: who is here (names, colors), bots for the host, the code and invite link,
// and the button that gathers everyone on the game screen.
import { clone, one, text, show, delegate, keyedList } from './dom.js';
import { isHost } from '../model.js';
import { paintHostNews } from './host_news.js';

export const inviteLink = (code) => `${location.origin}${location.pathname.replace(/[^/]*$/, '')}?room=${encodeURIComponent(code)}`;

export async function share(code, ctx) {
  const url = inviteLink(code);
  try {
    if (navigator.share) {
      await navigator.share({ title: 'Crossing Words', text: `Join my crossword room ${code}`, url });
      return;
    }
    await navigator.clipboard.writeText(url);
    ctx.dispatch({ type: 'notice', notice: { code: 'copied', message: 'Invite link copied.' } });
  } catch {
    // Share sheet dismissed, or no clipboard: the code on screen still works.
  }
}

const levelName = { easy: 'Easy bot', medium: 'Medium bot', hard: 'Hard bot' };

export function memberItem() {
  return clone('tpl-member');
}

export function paintMember(li, m, view, host) {
  one(li, '.swatch').style.background = m.color;
  text(one(li, '.who'), m.name);
  const tags = [];
  if (m.player === view.host) tags.push('host');
  if (m.player === view.you) tags.push('you');
  if (m.bot) tags.push(levelName[m.bot]);
  if (!m.bot && !m.present) tags.push('away');
  text(one(li, '.tag'), tags.join(' · '));
  const remove = one(li, '[data-remove]');
  if (remove) {
    remove.dataset.bot = m.player;
    remove.setAttribute('aria-label', `Remove ${m.name}`);
    show(remove, host && !!m.bot);
  }
}

export function mount(root, ctx) {
  delegate(root, 'click', 'button', (btn) => {
    if (btn.dataset.remove !== undefined) return ctx.send('remove_bot', { bot: btn.dataset.bot });
    if (btn.dataset.bot) return ctx.send('add_bot', { level: btn.dataset.bot });
    const act = btn.dataset.act;
    if (act === 'help') ctx.dispatch({ type: 'help', open: true });
    if (act === 'share') share(ctx.getState().view.code, ctx);
    if (act === 'to_game') ctx.send('to_game');
    if (act === 'close') ctx.leave();
  });
}

export function update(root, state) {
  const view = state.view;
  const host = isHost(state);
  text(one(root, '[data-slot="code"]'), view.code);
  paintHostNews(root, view);
  show(one(root, '[data-act="share"]'), !view.solo);
  show(one(root, '[data-slot="bots"]'), host && view.phase === 'lobby');
  keyedList(one(root, '[data-slot="members"]'), view.members, (m) => m.player, memberItem,
    (li, m) => paintMember(li, m, view, host));
  const go = one(root, '[data-act="to_game"]');
  const playing = view.phase === 'playing';
  text(go, host && view.phase === 'lobby' ? 'Everyone to the game' : playing ? 'Join the game in progress' : 'Go to the game screen');
  const hostName = view.members.find((m) => m.player === view.host)?.name || 'the host';
  text(one(root, '[data-slot="hint"]'),
    host ? (view.members.length === 1 ? 'Share the code, add a bot, or start on your own.' : '')
      : view.phase === 'lobby' ? `Waiting for ${hostName} to start.` : '');
}

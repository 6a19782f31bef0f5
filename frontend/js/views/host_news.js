// When the host role has passed on (the host's phone away past its two minutes), every
// screen says so until the next game starts: above all to the new host, who may not know
// that Start, Pause and End are theirs now. The line is a status region that stays in
// the page, empty when there is no news, so a screen reader reads it as it arrives.
import { nameOf, text } from './dom.js';

export function hostNews(view) {
  const was = view?.host_was;
  if (!was || was === view.host) return '';
  const before = nameOf(view, was);
  const now = nameOf(view, view.host);
  if (view.you === view.host) {
    return `${before} has been away two minutes, so you are the host now: you pick the puzzle, and can pause or end a game.`;
  }
  if (view.you === was) return `Your phone was away two minutes, so ${now} is the host now.`;
  return `${before} has been away two minutes, so ${now} is the host now.`;
}

export function paintHostNews(root, view) {
  text(root.querySelector('[data-slot="host-news"]'), hostNews(view));
}

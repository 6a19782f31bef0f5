// Every write to a room bumps its version by exactly one and every connection gets
// every version, so a hole in the sequence means a lost patch: the view we hold
// can no longer be trusted, and only a snapshot (a full view) repairs it.
import { mergePatch } from './patch.js';

// Returns {view, version, snapshot}: snapshot is true when we must ask for a full view.
export function receiveRoom(held, message) {
  const { view, version } = held;
  if (message.full) return { view: message.room, version: message.version, snapshot: false };
  if (view == null) return { view, version, snapshot: true };
  if (message.version <= version) return { view, version, snapshot: false }; // stale or repeated
  if (message.version !== version + 1) return { view, version, snapshot: true };
  return { view: mergePatch(view, message.room), version: message.version, snapshot: false };
}

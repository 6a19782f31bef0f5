// A computer's keyboard, mapped to the game's own commands. Returns null for keys the
// game leaves alone (so the browser keeps its shortcuts).

export function commandFor(e) {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && (e.key === 'z' || e.key === 'Z')) return { kind: 'undo' };
  if (mod || e.altKey) return null;
  if (/^[a-zA-Z]$/.test(e.key)) return { kind: 'letter', letter: e.key.toUpperCase() };
  switch (e.key) {
    case 'Backspace':
    case 'Delete':
      return { kind: 'delete' };
    case 'ArrowLeft':
      return { kind: 'arrow', dx: -1, dy: 0 };
    case 'ArrowRight':
      return { kind: 'arrow', dx: 1, dy: 0 };
    case 'ArrowUp':
      return { kind: 'arrow', dx: 0, dy: -1 };
    case 'ArrowDown':
      return { kind: 'arrow', dx: 0, dy: 1 };
    case 'Tab':
    case 'Enter':
      return { kind: 'clue', step: e.shiftKey ? -1 : 1 };
    case ' ':
      return { kind: 'turn' };
    case 'Escape':
      return { kind: 'pause' };
    case '?':
      return { kind: 'help' };
    default:
      return null;
  }
}

// The on-screen keyboard's rows; '⌫' is delete.
export const KEY_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM⌫'];

export const commandForKey = (key) =>
  key === '⌫' ? { kind: 'delete' } : /^[A-Z]$/.test(key) ? { kind: 'letter', letter: key } : null;

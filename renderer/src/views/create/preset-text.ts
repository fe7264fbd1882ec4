/**
 * Moving a preset's port in user-data the admin may have edited: the lines
 * where the preset wrote the old port (found by rendering the preset with
 * the old and the new port and comparing) are rewritten, and nothing else.
 * When one of those lines is no longer there as the preset wrote it, the
 * text is left alone and the caller asks.
 */
import type { Preset } from './presets';

/** The text with the preset's port lines moved from `from` to `to`, or undefined when a line was edited away. */
export function movePort(text: string, preset: Preset, from: number, to: number): string | undefined {
  if (from === to) return text;
  const before = preset.render(from).split('\n');
  const after = preset.render(to).split('\n');
  if (before.length !== after.length) return undefined;
  const lines = text.split('\n');
  for (let i = 0; i < before.length; i++) {
    if (before[i] === after[i]) continue;
    const at = lines.indexOf(before[i]!);
    if (at === -1 || lines.indexOf(before[i]!, at + 1) !== -1) return undefined;
    lines[at] = after[i]!;
  }
  return lines.join('\n');
}

/** The preset with its credentials choice bound, so every render of it (the port moves included) keeps the choice. */
export function withCredentials(preset: Preset, credentials: boolean): Preset {
  return { ...preset, render: (port, options) => preset.render(port, { credentials, ...options }) };
}

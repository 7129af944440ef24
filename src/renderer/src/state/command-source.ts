import type { LauncherActRequest } from '../../../protocol/launcher';

/**
 * What started a request: words typed or spoken, a preset's button, or an action on an item
 * of the launcher's list (`typed`: the words that listed it).
 */
export type CommandSource =
  | { kind: 'text'; text: string }
  | { kind: 'preset'; name: string }
  | { kind: 'item'; label: string; request: LauncherActRequest; typed: string };

export const sourceLabel = (s: CommandSource): string => (s.kind === 'text' ? s.text : s.kind === 'preset' ? `Preset: ${s.name}` : s.label);

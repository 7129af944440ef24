/** What started a request: words typed or spoken, or a preset's button. */
export type CommandSource = { kind: 'text'; text: string } | { kind: 'preset'; name: string };

export const sourceLabel = (s: CommandSource): string => (s.kind === 'text' ? s.text : `Preset: ${s.name}`);

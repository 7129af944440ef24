import { z } from 'zod';
import { DeskPilotError } from '../../../engine/errors';
import { MAX_NAME_LENGTH } from '../../../protocol/commands';
import type { Preset, PresetPlacement } from '../../../protocol/preset';
import { defineTool } from '../define-tool';
import { appName, text } from '../fields';
import { PresetsOutput } from '../read-shapes';
import { reportOutput } from '../report-output';
import { ToolError } from '../tool-error';

// Presets: named window layouts the user saved (the app's presets menu, `deskpilot presets`).

const presetName = text(MAX_NAME_LENGTH);

const where = (p: PresetPlacement) => `${p.app} ${p.monitor ?? ''}${p.rect ? ` [${p.rect.map((f) => +f.toFixed(2)).join(',')}]` : ` [${p.bounds!.join(',')}]`}`.replace('  ', ' ');
const presetLine = (p: Preset) => `"${p.name}": ${p.placements.map(where).join('; ') || 'no apps'}${p.urls.length ? `; opens ${p.urls.join(', ')}` : ''}`;

export const listPresets = defineTool({
  name: 'list_presets',
  // Other devices publish their presets' names only; a preset is saved where its windows are.
  local: true,
  title: 'List presets',
  description: 'List the saved window layouts (presets): each app with its monitor and place ([x,y,width,height] as fractions of the work area, or exact bounds), and the addresses it opens.',
  input: {},
  output: PresetsOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { ctx }) {
    const presets = await ctx.desk.listPresets();
    return { text: presets.length ? presets.map(presetLine).join('\n') : 'No presets saved yet (save_preset saves the current layout).', data: { presets } };
  },
});

export const applyPreset = defineTool({
  name: 'apply_preset',
  title: 'Apply a preset',
  description: 'Arrange the windows as a saved preset says: starts apps that are not running, places each, opens its addresses in Chrome.',
  input: { name: presetName.describe('The preset\'s name from list_presets (case does not matter).') },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'activate_preset', preset_name: args.name }));
  },
});

export const savePreset = defineTool({
  name: 'save_preset',
  local: true,
  title: 'Save the layout as a preset',
  description: 'Save where the windows are now as a named preset (all visible windows, or only the apps listed). Replaces a preset of the same name.',
  input: {
    name: presetName.describe('The name to save it under, e.g. "code space".'),
    apps: z
      .array(appName, { error: 'must be an array of app names' })
      .min(1, { error: 'must list at least one app (or leave it out for every visible window)' })
      .max(50, { error: 'must list at most 50 apps' })
      .optional()
      .describe('Only these running apps (names from list_apps); default every visible window.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, { ctx }) {
    let preset: Preset;
    try {
      preset = await ctx.desk.savePreset(args.name, args.apps);
    } catch (e) {
      // The engine's refusals are about the arguments: said as such, with what to do.
      if (e instanceof DeskPilotError && ['invalid_input', 'app_unknown', 'nothing_to_save'].includes(e.code)) {
        throw new ToolError(`Nothing was saved: ${e.message}${e.code === 'app_unknown' ? ' (list_apps shows the running apps)' : ''}.`, 'invalid_argument');
      }
      throw e;
    }
    return { text: `Saved preset ${presetLine(preset)}`, data: { preset } };
  },
});

export const PRESET_TOOLS = [listPresets, applyPreset, savePreset];

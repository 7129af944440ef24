import { z } from 'zod';
import { Bounds, MonitorName, MAX_NAME_LENGTH } from './commands';
import { echo } from './echo';
import { uniqueNames } from './unique-names';

// A preset is a named layout. Placements are stored relative to a monitor's work area
// (fractions 0..1) so a layout survives a resolution change; absolute bounds are allowed
// for people who want pixels.

const fraction = z.number({ error: 'must be a number from 0 to 1' }).min(0, { error: 'must be at least 0' }).max(1, { error: 'must be at most 1' });

export const RelativeRect = z
  .tuple([fraction, fraction, fraction, fraction], { error: 'must be [x, y, width, height] as fractions of the work area' })
  .refine(([x, , w]) => w > 0 && x + w <= 1.0001, { error: 'x + width must be at most 1, width above 0' })
  .refine(([, y, , h]) => h > 0 && y + h <= 1.0001, { error: 'y + height must be at most 1, height above 0' })
  .describe('[x, y, width, height] as fractions of the monitor work area');

export const PresetPlacement = z
  .strictObject({
    app: z.string().trim().min(1, { error: 'must be a non-empty string' }).max(MAX_NAME_LENGTH),
    /** A role (main/left/right) or a monitor's system name. */
    monitor: z.union([MonitorName, z.string().trim().min(1).max(MAX_NAME_LENGTH)]).optional(),
    rect: RelativeRect.optional(),
    bounds: Bounds.optional(),
    launch: z.boolean().default(true).describe('Launch the app when it is not running.'),
  })
  .refine((p) => (p.rect !== undefined) !== (p.bounds !== undefined), {
    error: 'needs exactly one of "rect" (relative to a monitor) or "bounds" (absolute)',
  })
  .refine((p) => p.rect === undefined || p.monitor !== undefined, { error: '"rect" needs a "monitor"', path: ['monitor'] });
export type PresetPlacement = z.infer<typeof PresetPlacement>;

export const Preset = z.strictObject({
  name: z.string().trim().min(1, { error: 'must be a non-empty string' }).max(MAX_NAME_LENGTH),
  placements: z
    .array(PresetPlacement)
    .max(50)
    // One placement per app: two would fight over the same window.
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((p, i) => {
        const key = p.app.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'app'], message: `"${echo(p.app)}" is placed twice; a preset places each app once` });
        seen.add(key);
      });
    }),
  urls: z.array(z.string().trim().min(1).max(8192)).max(50).default([]).describe('Opened in Chrome, each in a new tab.'),
});
export type Preset = z.infer<typeof Preset>;

export const PresetFile = z
  .strictObject({ version: z.literal(1), presets: z.array(Preset) })
  .superRefine(uniqueNames('presets', 'preset name'));
export type PresetFile = z.infer<typeof PresetFile>;

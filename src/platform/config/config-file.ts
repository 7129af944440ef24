import { z } from 'zod';

// config.json in the config dir. Every field is optional; unknown fields are errors so a
// typo ("chrome_url") is reported instead of silently ignored.
export const ConfigFile = z.strictObject({
  chrome: z
    .strictObject({
      url: z.string().trim().min(1).optional().describe('Explicit DevTools endpoint: http://127.0.0.1:9222 or ws://…'),
      allow_remote: z.boolean().optional().describe('Allow a non-loopback DevTools endpoint.'),
      path: z.string().trim().min(1).optional().describe('Chrome executable for `deskpilot chrome launch`.'),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

import { DeskPilotError, errorMessage } from '../engine/errors';
import { formatRect } from '../engine/geometry';
import type { Preset } from '../protocol/preset';
import type { ConfigFlags } from '../platform/config/load-config';
import type { Desk } from '../app/desk';
import { openDesk } from './open-desk';
import { exitCodeFor } from './exec-command';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { tellReport, type TellOptions } from './tell-report';

const describePlacement = (p: Preset['placements'][number]) =>
  p.rect
    ? `${p.app} on ${p.monitor} at ${p.rect.map((v) => `${Math.round(v * 100)}%`).join(' ')}${p.launch ? '' : ' (no launch)'}`
    : `${p.app} at ${formatRect(p.bounds!)}${p.launch ? '' : ' (no launch)'}`;

async function withDesk(flags: ConfigFlags, io: Io, fn: (desk: Desk) => Promise<number>): Promise<number> {
  const desk = await openDesk(flags, io);
  try {
    return await fn(desk);
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return e instanceof DeskPilotError && e.code === 'invalid_input' ? EXIT.invalid : EXIT.failed;
  } finally {
    await desk.close();
  }
}

export const runPresetsList = (flags: ConfigFlags, opts: { json: boolean }, io: Io) =>
  withDesk(flags, io, async (desk) => {
    const presets = await desk.listPresets();
    if (opts.json) {
      // The presets as saved, as `presets show` prints one: an empty list is [] (and exit 0).
      io.out(JSON.stringify(presets, null, 2) + '\n');
      return EXIT.ok;
    }
    if (presets.length === 0) io.out('no presets saved (save one with `deskpilot presets save NAME`)\n');
    for (const p of presets) io.out(`${p.name}: ${p.placements.map(describePlacement).join('; ') || 'no windows'}${p.urls.length ? `; opens ${p.urls.length} URL(s)` : ''}\n`);
    return EXIT.ok;
  });

export const runPresetsShow = (flags: ConfigFlags, name: string, io: Io) =>
  withDesk(flags, io, async (desk) => {
    const preset = (await desk.listPresets()).find((p) => p.name.toLowerCase() === name.toLowerCase());
    if (!preset) {
      io.err(`deskpilot: no preset named "${name}"\n`);
      return EXIT.invalid;
    }
    io.out(JSON.stringify(preset, null, 2) + '\n');
    return EXIT.ok;
  });

export const runPresetsSave = (flags: ConfigFlags, name: string, apps: string[] | undefined, io: Io) =>
  withDesk(flags, io, async (desk) => {
    const preset = await desk.savePreset(name, apps);
    io.out(`saved preset "${preset.name}": ${preset.placements.map(describePlacement).join('; ')}\n`);
    return EXIT.ok;
  });

export const runPresetsDelete = (flags: ConfigFlags, name: string, io: Io) =>
  withDesk(flags, io, async (desk) => {
    if (await desk.deletePreset(name)) {
      io.out(`deleted preset "${name}"\n`);
      return EXIT.ok;
    }
    io.err(`deskpilot: no preset named "${name}"\n`);
    return EXIT.invalid;
  });

/** Runs one command through the exec API and says what it did (the full report with --json). */
const execAndTell = (flags: ConfigFlags, input: unknown, opts: TellOptions, io: Io) =>
  withDesk(flags, io, async (desk) => {
    const report = await desk.exec(input);
    tellReport(report, io, opts);
    return exitCodeFor(report);
  });

export const runPresetsApply = (flags: ConfigFlags, name: string, opts: TellOptions, io: Io) =>
  execAndTell(flags, { type: 'activate_preset', preset_name: name }, opts, io);

export const runUndo = (flags: ConfigFlags, steps: number, opts: TellOptions, io: Io) => execAndTell(flags, { type: 'undo', steps }, opts, io);

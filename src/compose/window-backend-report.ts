import type { RawMonitor } from '../engine/ports';
import { assignRoles } from '../engine/monitor-roles';
import { errorMessage } from '../engine/errors';
import type { Config } from '../platform/config/load-config';
import { chooseWindowBackend, type WindowBackendKind } from './window-backend-choice';
import { windowBackendFor } from './window-backends';

// What `deskpilot doctor` says about window placement: the backend chosen and why, whether it
// answers (what it is, the monitors and windows it sees), and what is missing when it does not.

export interface WindowBackendReport {
  kind: WindowBackendKind | null;
  reason: string;
  limit: string | null;
  /** The backend's own description ("sway 1.7 (IPC …)"), null when it did not answer. */
  describes: string | null;
  /** What is missing or failed, in the backend's words (it says what to do), or null. */
  problem: string | null;
  monitors: Array<{ name: string; roles: string[]; bounds: number[]; work_area: number[] }>;
  windows: number | null;
}

export async function probeWindowBackend(config: Config, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Promise<WindowBackendReport> {
  const choice = chooseWindowBackend(platform, env, config.windowsBackend);
  const report: WindowBackendReport = { ...choice, describes: null, problem: null, monitors: [], windows: null };
  if (!choice.kind) return { ...report, problem: choice.reason };
  try {
    const backend = await windowBackendFor(choice, { env, platform });
    if (!backend) return { ...report, problem: choice.reason };
    try {
      const [describes, monitors, windows] = await Promise.all([backend.describe(), backend.listMonitors(), backend.listWindows()]);
      return { ...report, describes, monitors: rolesOf(monitors), windows: windows.length };
    } finally {
      await backend.dispose().catch(() => undefined);
    }
  } catch (e) {
    return { ...report, problem: errorMessage(e) };
  }
}

const rolesOf = (raw: RawMonitor[]) => assignRoles(raw).map((m) => ({ name: m.name, roles: m.roles, bounds: m.bounds, work_area: m.work_area }));

import type { SourceStatus } from '../protocol/context';
import type { ContextSources } from './context-builder';
import { NO_WINDOW_BACKEND } from './context-builder';
import { errorMessage } from './errors';

// Cheap status for status lines and `deskpilot service status`: whether Chrome and the
// window backend answer, without listing every tab and window (that is a snapshot's job).

export interface DeskHealth {
  chrome: SourceStatus;
  windows: SourceStatus;
}

export async function deskHealth(src: Pick<ContextSources, 'chrome' | 'windows' | 'windowsUnavailableReason'>): Promise<DeskHealth> {
  const status = async (describe: () => Promise<string>): Promise<SourceStatus> => {
    try {
      return { ok: true, message: await describe() };
    } catch (e) {
      return { ok: false, message: errorMessage(e) };
    }
  };
  const windows = src.windows;
  const [chrome, win] = await Promise.all([
    status(async () => (await src.chrome()).describe()),
    windows
      ? status(async () => (await windows()).describe())
      : Promise.resolve({ ok: false, message: src.windowsUnavailableReason ?? NO_WINDOW_BACKEND }),
  ]);
  return { chrome, windows: win };
}

import type { TabInfo } from '../../protocol/context';
import type { PreparedBatch, ResolvedCommand } from '../../protocol/prepared-batch';
import { tabLabel } from '../../engine/words';
import type { Desk } from '../desk';
import { firstDifference } from '../sync/remote-gate';

// Before a confirmed batch runs: does it still apply to the desk as it is now? Its commands are
// prepared again against a fresh snapshot — tab indices rebound to where the same tabs (by their
// stable ids) are now — and compared with the batch the user was shown, as the remote gate does
// for a batch from another device (desk_changed). A tab that closed, an app that opened another
// window: the user agreed to something else, so nothing runs.

const tabsOf = (cmd: ResolvedCommand): readonly TabInfo[] => ('tabs' in cmd ? cmd.tabs : 'pool' in cmd && cmd.pool ? cmd.pool : []);

/** null: it applies as shown. Otherwise what changed, in words. */
export async function deskChange(desk: Desk, batch: PreparedBatch): Promise<string | null> {
  const live = await desk.snapshot({ summaries: false });
  const nowAt = new Map(live.tabs.map((t) => [t.target_id, t.index]));
  const inputs: Array<Record<string, unknown>> = [];
  for (const cmd of batch.commands) {
    const input: Record<string, unknown> = { ...cmd.command };
    if (Array.isArray(input.tab_indices)) {
      const shown = new Map(tabsOf(cmd).map((t) => [t.index, t]));
      const rebound: number[] = [];
      for (const i of input.tab_indices as number[]) {
        const tab = shown.get(i);
        const now = tab ? nowAt.get(tab.target_id) : undefined;
        if (now === undefined) return `${tab ? tabLabel(tab) : `tab ${i}`} is no longer open`;
        rebound.push(now);
      }
      input.tab_indices = rebound;
    }
    inputs.push(input);
  }
  const again = await desk.prepare(inputs, { snapshot: live });
  if (!again.ok) return again.report.errors.map((e) => e.message).join('; ') || `it can no longer be prepared (${again.report.status})`;
  const i = firstDifference(batch.commands, again.batch.commands);
  if (i === null) return null;
  return `it was to ${batch.plan[i]?.summary ?? batch.commands[i]?.type}, which is now to ${again.batch.plan[i]?.summary ?? 'something else'}`;
}

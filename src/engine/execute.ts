import type { ErrorCode } from '../protocol/codes';
import type { TabInfo } from '../protocol/context';
import type { ContextSnapshot } from '../protocol/context';
import type { CommandResult } from '../protocol/record';
import { describeContext } from './describe-context';
import { DeskPilotError, TabGoneError, WindowGoneError, errorMessage } from './errors';
import { domainOf } from './normalize-url';
import { TabsPartlyClosedError } from './tabs-partly-closed';
import { byName, tabLabel } from './words';
import { answerLocally } from './local-planner/answer-locally';
import type { ChromeTab } from './ports';
import type { Turn } from '../protocol/planning';
import { isTabOp } from './describe-tabs';
import { closeRecorded, runTabOp } from './tab-ops';
import { applyPreset } from './presets';
import type { ResolvedCommand } from './resolve';
import type { ExecContext, ExecutionPorts } from './exec-context';
import { undoBatches } from './undo';
import { closeApp, focusApp, listApps, placeApp } from './window-ops';
import { setAppState, swapApps, tileApps } from './window-layout-ops';
import { inWindowWords, windowTarget } from './browser-window-target';
import { focusBrowserWindow } from './browser-window-focus';

export type { ExecContext, ExecutionPorts };

export interface ExecutedCommand {
  result?: CommandResult;
  error?: { code: ErrorCode; message: string };
}

/** Runs one resolved command. Never throws: a failure becomes `error`, so later commands still run. */
export async function executeOne(cmd: ResolvedCommand, ctx: ExecContext): Promise<ExecutedCommand> {
  try {
    return { result: await run(cmd, ctx) };
  } catch (e) {
    const code = e instanceof DeskPilotError ? e.code : 'failed';
    return { error: { code, message: failureMessage(cmd, e) } };
  }
}


function failureMessage(cmd: ResolvedCommand, e: unknown): string {
  if (e instanceof TabGoneError && cmd.type === 'switch_tab') {
    return `${tabLabel(cmd.tab)} was closed after the snapshot; nothing was switched`;
  }
  if (e instanceof WindowGoneError && 'app' in cmd) {
    return `${cmd.app}'s window closed while DeskPilot was working on it; nothing more was changed`;
  }
  return errorMessage(e);
}

async function run(cmd: ResolvedCommand, ctx: ExecContext): Promise<CommandResult> {
  const { ports, snap, undo, front } = ctx;
  if (isTabOp(cmd)) return runTabOp(cmd, ctx);
  switch (cmd.type) {
    case 'list_tabs': {
      const tabs = toListing(await (await ports.chrome()).listTabs());
      const windows = new Set(tabs.map((t) => t.window_index)).size;
      return {
        ok: true,
        message: `${tabs.length} tab${tabs.length === 1 ? '' : 's'} open in ${windows} window${windows === 1 ? '' : 's'}`,
        data: { tabs },
      };
    }
    case 'switch_tab': {
      const chrome = await ports.chrome();
      await chrome.activateTab(cmd.tab.target_id);
      const focusWindow = await focusBrowserWindow(cmd.tab, ports);
      front?.focused({
        label: tabLabel(cmd.tab),
        refocus: async () => {
          await chrome.activateTab(cmd.tab.target_id);
          await focusWindow?.();
        },
      });
      return { ok: true, message: `Switched to ${tabLabel(cmd.tab)}`, data: { target_id: cmd.tab.target_id } };
    }
    case 'open_url': {
      const { targetId } = await (await ports.chrome()).openUrl(cmd.url, windowTarget(cmd.command));
      return { ok: true, message: `Opened ${cmd.url} in a new tab${inWindowWords(cmd.command)}`, data: { url: cmd.url, target_id: targetId } };
    }
    case 'close_tab': {
      const byId = new Map(cmd.tabs.map((t) => [t.target_id, t]));
      let outcome: { closed: string[]; missing: string[] };
      try {
        outcome = await closeRecorded(await ports.chrome(), cmd.tabs, undo);
      } catch (e) {
        if (e instanceof TabsPartlyClosedError) return partlyClosed(e, byId);
        throw e;
      }
      const { closed, missing } = outcome;
      const closedTabs = closed.map((id) => byId.get(id)!).filter(Boolean);
      const missingTabs = missing.map((id) => byId.get(id)!).filter(Boolean);
      const parts = [`Closed ${closedTabs.length} tab${closedTabs.length === 1 ? '' : 's'}`];
      if (closedTabs.length) parts[0] += `: ${closedTabs.map(tabLabel).join(', ')}`;
      if (missingTabs.length) parts.push(`already gone: ${missingTabs.map(tabLabel).join(', ')}`);
      return {
        ok: true,
        message: parts.join('; '),
        data: { closed: closedTabs.map((t) => t.index), already_gone: missingTabs.map((t) => t.index) },
      };
    }
    case 'query':
      return answerQuestion(cmd.command.question, ports, await snap(), (await ctx.turns?.().catch(() => [])) ?? []);
    case 'list_apps':
      return listApps(ports);
    case 'focus_app':
      return focusApp(cmd.app, cmd.windowId, ports, undo, front);
    case 'place_app':
      return placeApp(
        { app: cmd.app, windowId: cmd.windowId, monitor: cmd.monitor, target: cmd.command.monitor, bounds: cmd.command.bounds, layout: cmd.command.layout, raise: cmd.command.raise },
        ports,
        undo,
        front,
      );
    case 'swap_apps':
      return swapApps(cmd.windows, ports, undo, front);
    case 'tile_apps':
      return tileApps(cmd.windows, cmd.monitor, ports, undo, front);
    case 'set_app_state':
      return setAppState(cmd, cmd.command.state, ports, undo, front);
    case 'close_app':
      return closeApp(cmd.app, cmd.windowIds, ports, undo);
    case 'activate_preset': {
      const preset = byName(await ports.presets.list(), cmd.preset, (p) => p.name);
      if (!preset) throw new DeskPilotError(`preset "${cmd.preset}" was deleted after the snapshot`, 'preset_gone');
      return applyPreset(preset, ports, undo, front);
    }
    case 'undo':
      return undoBatches(cmd.steps, ports);
    case 'open_recent': {
      if (!ports.recent) throw new DeskPilotError('recent files and projects cannot be opened on this desk', 'unavailable');
      const { pid } = await ports.recent.open(cmd.path, cmd.app);
      // Not undone: closing what it opened could lose the user's edits in it. Recorded as such,
      // so "undo" right after says so instead of undoing an older batch.
      undo.cannotUndo(`opening ${cmd.path} (close it yourself)`);
      return { ok: true, message: `Opened ${cmd.path} ${cmd.app ? `in ${cmd.app}` : 'with its default app'} (undo does not close it)`, data: { path: cmd.path, app: cmd.app, pid } };
    }
  }
}

/** Closing stopped part-way (Chrome went away, a tab would not close): the report names the tabs that did close. */
function partlyClosed(e: TabsPartlyClosedError, byId: Map<string, TabInfo>): CommandResult {
  const tabs = (ids: string[]) => ids.map((id) => byId.get(id)).filter((t): t is TabInfo => t !== undefined);
  const [closed, notClosed, missing] = [tabs(e.closed), tabs(e.notClosed), tabs(e.missing)];
  const list = (ts: TabInfo[]) => (ts.length ? ts.map(tabLabel).join(', ') : 'none');
  const total = closed.length + notClosed.length;
  const parts = [`closed ${closed.length} of ${total} tab${total === 1 ? '' : 's'}${closed.length ? `: ${list(closed)}` : ''}`, `not closed: ${list(notClosed)}`];
  if (missing.length) parts.push(`already gone: ${list(missing)}`);
  return {
    ok: false,
    message: `${e.stoppedBy}; ${parts.join('; ')}`,
    data: { closed: closed.map((t) => t.index), not_closed: notClosed.map((t) => t.index), already_gone: missing.map((t) => t.index), code: e.code },
  };
}

/** Countable and list questions are answered from the snapshot; open ones by the LLM, when there is one. */
async function answerQuestion(question: string, ports: ExecutionPorts, snap: ContextSnapshot, turns: readonly Turn[]): Promise<CommandResult> {
  const local = answerLocally(question, snap);
  if (local !== null) return { ok: true, message: local, data: { question, answered_by: 'local' } };
  if (ports.answerer) {
    const { answer, usage } = await ports.answerer.answer({ question, context: snap, turns });
    return { ok: true, message: answer, data: { question, answered_by: 'llm', usage } };
  }
  return {
    ok: true,
    message: `${describeContext(snap)} (Open questions need an LLM: set DESKPILOT_LLM_MODEL.)`,
    data: { question, answered_by: 'summary' },
  };
}

/** A fresh listing in the snapshot's tab shape (without summaries: listing must stay instant). */
export function toListing(tabs: ChromeTab[]): Array<Omit<TabInfo, 'content_summary'>> {
  return tabs.map((t, i) => ({
    index: i + 1,
    title: t.title,
    url: t.url,
    domain: domainOf(t.url),
    is_active: t.active,
    window_index: t.windowIndex,
    local_index: t.localIndex,
    target_id: t.targetId,
  }));
}

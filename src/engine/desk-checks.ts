import { MAX_RECENT } from '../protocol/context';
import type { PreparedBatch, ResolvedCommand } from '../protocol/prepared-batch';
import type { FieldError } from '../protocol/validation';
import { errorMessage } from './errors';
import { checkNavigations, type NavigationCheck } from './navigation-check';
import type { ChromeBackend, RecentPlaces } from './ports';

// What a batch's resolved targets are checked against on the live desk, when it is prepared
// and again when it runs. A batch is input (it may come from a socket, a file or another
// device), so its resolved fields are not trusted: every address it opens is put to the
// Chrome port (navigation-check.ts) and never goes to one of DeskPilot's own listeners, and
// every recent item it opens must be in this desk's own recent list as listed now, in an app
// that opens the file rather than running it.

/** One of DeskPilot's own listeners, e.g. the sync server it uses. */
export interface OwnEndpoint {
  url: string;
  /** Named in the refusal, e.g. "DeskPilot's sync server". */
  what: string;
}

export interface DeskCheckPorts {
  chrome: () => Promise<ChromeBackend>;
  recent?: RecentPlaces;
  ownEndpoints?: readonly OwnEndpoint[];
}

/** Names that reach this computer itself (a literal check: the engine looks nothing up). */
const isLoopback = (host: string) => {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1' || h === '0.0.0.0' || h === '::' || h === '0:0:0:0:0:0:0:1';
};

function hostPort(raw: string): { host: string; port: string } | null {
  try {
    const u = new URL(raw);
    const port = u.port || ({ 'http:': '80', 'ws:': '80', 'https:': '443', 'wss:': '443' } as Record<string, string>)[u.protocol];
    return port ? { host: u.hostname, port } : null;
  } catch {
    return null;
  }
}

/** The addresses `commands` open that are DeskPilot's own listeners (same port, same host or both this computer). */
export function checkOwnEndpoints(commands: readonly ResolvedCommand[], own: readonly OwnEndpoint[] = []): NavigationCheck {
  const errors: FieldError[] = [];
  commands.forEach((c, index) => {
    if (c.type !== 'open_url') return;
    const to = hostPort(c.url);
    const hit = to && own.find((e) => {
      const at = hostPort(e.url);
      return at !== null && at.port === to.port && (at.host.toLowerCase() === to.host.toLowerCase() || (isLoopback(at.host) && isLoopback(to.host)));
    });
    if (hit) errors.push({ path: `commands[${index}].url`, message: `refused: ${c.url} is ${hit.what}; a page opened there could talk to DeskPilot itself` });
  });
  return errors.length ? { ok: false, unavailable: false, errors } : { ok: true };
}

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/[/\\]+$/, '') : p);

/** The recent-item opens of `commands` that this desk would not open, by field. */
export async function checkRecentOpens(commands: readonly ResolvedCommand[], recent: RecentPlaces | undefined): Promise<NavigationCheck> {
  const opens = commands.flatMap((c, index) => (c.type === 'open_recent' ? [{ index, c }] : []));
  if (opens.length === 0) return { ok: true };
  const at = (i: number, field: string) => `commands[${i}].${field}`;
  if (!recent) return { ok: false, unavailable: true, errors: [{ path: at(opens[0]!.index, 'path'), message: 'recent files and projects cannot be opened on this desk' }] };
  let listed: Awaited<ReturnType<RecentPlaces['list']>>;
  try {
    listed = await recent.list(MAX_RECENT);
  } catch (e) {
    return { ok: false, unavailable: true, errors: [{ path: at(opens[0]!.index, 'path'), message: `the recent list cannot be read: ${errorMessage(e)}` }] };
  }
  const errors: FieldError[] = [];
  for (const { index, c } of opens) {
    const list = c.kind === 'file' ? listed.files : listed.projects;
    if (!list.some((r) => trimSlash(r.path) === trimSlash(c.path))) {
      errors.push({ path: at(index, 'path'), message: `"${c.path}" is not one of this desk's recent ${c.kind === 'file' ? 'files' : 'projects'} as listed now; only a listed path can be opened` });
      continue;
    }
    const field = at(index, c.app === null ? 'path' : 'app_name');
    try {
      const refusal = await recent.openRefusal(c.path, c.app);
      if (refusal) errors.push({ path: field, message: `not opened: ${refusal}` });
    } catch (e) {
      errors.push({ path: field, message: errorMessage(e) });
    }
  }
  return errors.length ? { ok: false, unavailable: false, errors } : { ok: true };
}

/** Every check of a batch against the live desk; `confirm` as for checkNavigations (a batch from elsewhere). */
export async function checkAgainstDesk(commands: readonly ResolvedCommand[], ports: DeskCheckPorts, confirm?: PreparedBatch['confirm']): Promise<NavigationCheck> {
  const own = checkOwnEndpoints(commands, ports.ownEndpoints);
  const [nav, recent] = await Promise.all([checkNavigations(commands, ports.chrome, confirm), checkRecentOpens(commands, ports.recent)]);
  if (nav.ok && recent.ok && own.ok) return { ok: true };
  const failed = [own, nav, recent].filter((c): c is Extract<NavigationCheck, { ok: false }> => !c.ok);
  const errors = failed.flatMap((c) => c.errors).sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  return { ok: false, unavailable: failed.every((c) => c.unavailable), errors };
}

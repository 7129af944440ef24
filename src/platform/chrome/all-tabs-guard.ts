import type { Protocol } from 'devtools-protocol';
import { answerPaused, guardedRequestPatterns } from './agent/request-guard';
import { call, type CdpConnection, type CdpListener, type TargetInfo } from './cdp-connection';
import type { DevtoolsGuard } from './devtools-guard';

// Every tab, not only the agent's and the one open_url is opening, is kept away from the
// DevTools endpoint while DeskPilot watches the browser (the warm service, the app): a page the
// user opened — or one open_url opened, after its first navigation — that redirects by script or
// meta refresh to /json/list would otherwise show every tab's websocket in the tab's text, and
// from there in summaries and the planner's context. Each page target gets a session of its own
// with the Fetch domain pausing its document requests (and any request to an endpoint port);
// the guard fails those it refuses. Tabs opened later are attached as Chrome announces them.
// When DeskPilot's connection closes, Chrome drops the sessions and their pauses with it.

type Log = (line: string) => void;

export class AllTabsGuard {
  /** Page target id → its session, once attached. */
  private readonly sessions = new Map<string, string>();
  private readonly attaching = new Set<string>();
  private readonly unsubscribe: Array<() => void> = [];
  private stopped = false;

  private constructor(
    private readonly conn: CdpConnection,
    private readonly guard: DevtoolsGuard,
    private readonly log: Log,
  ) {}

  /** Attaches to every page there is and every one that comes. Throws when Chrome refuses discovery. */
  static async start(conn: CdpConnection, guard: DevtoolsGuard, log: Log = () => undefined): Promise<AllTabsGuard> {
    const g = new AllTabsGuard(conn, guard, log);
    g.listen('Target.targetCreated', (p: { targetInfo: TargetInfo }) => g.consider(p.targetInfo));
    g.listen('Target.targetDestroyed', (p: { targetId: string }) => g.sessions.delete(p.targetId));
    g.listen('Target.detachedFromTarget', (p: { sessionId: string; targetId?: string }) => {
      for (const [target, session] of g.sessions) if (session === p.sessionId) g.sessions.delete(target);
    });
    g.listen('Fetch.requestPaused', (p: Protocol.Fetch.RequestPausedEvent, sessionId?: string) => g.paused(p, sessionId));
    // Idempotent on a connection where the tab list is already discovered (live-targets.ts).
    await call(conn, 'Target.setDiscoverTargets', { discover: true });
    const { targetInfos } = (await call(conn, 'Target.getTargets')) as { targetInfos: TargetInfo[] };
    await Promise.all(targetInfos.map((t) => g.consider(t)));
    return g;
  }

  /** How many pages are guarded now (for tests and status). */
  get guarded(): number {
    return this.sessions.size;
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe.splice(0).forEach((fn) => fn());
    for (const sessionId of this.sessions.values()) void call(this.conn, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
    this.sessions.clear();
  }

  private listen(event: string, fn: CdpListener): void {
    this.conn.on(event, fn);
    this.unsubscribe.push(() => this.conn.removeListener(event, fn));
  }

  private async consider(t: TargetInfo): Promise<void> {
    if (this.stopped || t.type !== 'page' || this.sessions.has(t.targetId) || this.attaching.has(t.targetId)) return;
    this.attaching.add(t.targetId);
    try {
      const { sessionId } = (await call(this.conn, 'Target.attachToTarget', { targetId: t.targetId, flatten: true })) as { sessionId: string };
      if (this.stopped) return void call(this.conn, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
      this.sessions.set(t.targetId, sessionId);
      await call(this.conn, 'Fetch.enable', { patterns: guardedRequestPatterns(this.guard) }, { sessionId });
    } catch {
      // The tab closed meanwhile, or is not a page that can be attached (Chrome's own UI).
      this.sessions.delete(t.targetId);
    } finally {
      this.attaching.delete(t.targetId);
    }
  }

  private paused(p: Protocol.Fetch.RequestPausedEvent, sessionId: string | undefined): void {
    if (!sessionId || ![...this.sessions.values()].includes(sessionId)) return;
    void (async () => {
      const a = await answerPaused(this.guard, p);
      if (a.refusal) this.log(`blocked a tab's request to the DevTools endpoint: ${a.refusal.url}`);
      await call(this.conn, a.method, a.params, { sessionId });
    })().catch(() => undefined); // the tab went away: Chrome lets the request go on its own
  }
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CompanionStatus } from '../../engine/ports';
import { DeskPilotError, errorMessage } from '../../engine/errors';
import { call, CdpTimeoutError, sleep, withTimeout, type CdpConnection, type CdpListener, type TargetInfo } from './cdp-connection';

// The companion extension (resources/companion-extension) has no code: DeskPilot attaches to
// its service worker over the browser connection it already holds and evaluates chrome.tabs /
// chrome.tabGroups calls there. Finding it:
//   1. its worker is a `service_worker` target at chrome-extension://<id>/ — attach (flat);
//      while a DevTools session is attached Chrome keeps the worker running;
//   2. a stopped worker has no target: through any page's session, ServiceWorker.enable makes
//      Chrome list the profile's worker registrations (one event, also when there are none),
//      so the extension's registration says whether it is installed without waiting for
//      something that may never come; ServiceWorker.startWorker then starts it.
// An absent extension is remembered briefly, so snapshots do not look again every time.

/** Fixed by the `key` in the extension's manifest.json, wherever it is loaded from. */
export const COMPANION_ID = 'ecdcajdogmlhngeknjdejoeecpgeapgp';
const SCOPE = `chrome-extension://${COMPANION_ID}/`;

/** How long "not installed" is believed before looking again. */
const ABSENT_TTL_MS = 15_000;
const START_TIMEOUT_MS = 5_000;
const CALL_TIMEOUT_MS = 10_000;
const LIST_TIMEOUT_MS = 10_000;

/** The extension's folder in this checkout or package, or null when it cannot be found. */
export function companionExtensionDir(): string | null {
  const roots = [path.join(__dirname, '..'), path.join(__dirname, '..', '..'), path.join(__dirname, '..', '..', '..'), path.join(__dirname, '..', '..', '..', '..')];
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [...(resourcesPath ? [path.join(resourcesPath, 'companion-extension')] : []), ...roots.map((r) => path.join(r, 'resources', 'companion-extension'))];
  return candidates.find((d) => existsSync(path.join(d, 'manifest.json'))) ?? null;
}

/** How to add the extension, as the sentence a command without it ends with. */
export function companionHelp(dir: string | null = companionExtensionDir()): string {
  const folder = dir ?? 'resources/companion-extension in DeskPilot';
  return (
    `The DeskPilot companion extension is not installed in this Chrome. \`deskpilot chrome launch\` loads it into DeskPilot's own profile (Chromium, and Chrome before 137); ` +
    `in Google Chrome 137 or later open chrome://extensions, turn on Developer mode, click "Load unpacked" and choose ${folder}.`
  );
}

/** A command that needs the companion extension, without it. */
export class CompanionMissingError extends DeskPilotError {
  constructor(message: string) {
    super(message, 'unavailable');
  }
}

export class CompanionLink {
  private sessionId: string | null = null;
  private finding: Promise<string | null> | null = null;
  private absentUntil = 0;
  private absentWhy = '';
  private readonly onDetached: CdpListener;

  constructor(
    private readonly conn: CdpConnection,
    private readonly help: string = companionHelp(),
    private readonly now: () => number = Date.now,
  ) {
    this.onDetached = (p: { sessionId?: string }) => {
      if (p.sessionId && p.sessionId === this.sessionId) this.sessionId = null;
    };
    conn.on('Target.detachedFromTarget', this.onDetached);
  }

  /** Whether the extension answers; `fresh` looks again even if it was just found missing. */
  async status(fresh = false): Promise<CompanionStatus> {
    const session = await this.session(fresh);
    if (session) return { ok: true, message: `DeskPilot companion extension (${COMPANION_ID}) answers` };
    return { ok: false, message: this.absentWhy };
  }

  /**
   * Evaluates `(fn)(arg)` in the extension's worker and resolves with its (JSON) value. `fn` is
   * the source of an async function; it runs with chrome.tabs and chrome.tabGroups available.
   */
  async call<T>(fn: string, arg: unknown, what: string): Promise<T> {
    const sessionId = await this.session(false);
    if (!sessionId) throw new CompanionMissingError(`${what} needs the DeskPilot companion extension: ${this.absentWhy}`);
    let r;
    try {
      r = await call(
        this.conn,
        'Runtime.evaluate',
        { expression: `(${fn})(${JSON.stringify(arg)})`, awaitPromise: true, returnByValue: true, silent: true },
        { sessionId, timeoutMs: CALL_TIMEOUT_MS },
      );
    } catch (e) {
      // A worker that does not answer is let go, so the next call finds (or restarts) it afresh.
      if (e instanceof CdpTimeoutError && this.sessionId === sessionId) this.dispose(false);
      throw e;
    }
    if (r.exceptionDetails) {
      const text = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
      throw new DeskPilotError(`Chrome refused to ${what}: ${text.split('\n')[0]}`, 'failed');
    }
    return r.result.value as T;
  }

  /** Detaches from the worker; `forGood` also stops listening (the connection is being closed). */
  dispose(forGood = true): void {
    if (forGood) this.conn.removeListener('Target.detachedFromTarget', this.onDetached);
    if (this.sessionId) void call(this.conn, 'Target.detachFromTarget', { sessionId: this.sessionId }).catch(() => undefined);
    this.sessionId = null;
  }

  private async session(fresh: boolean): Promise<string | null> {
    if (this.sessionId) return this.sessionId;
    if (!fresh && this.now() < this.absentUntil) return null;
    this.finding ??= this.find().finally(() => {
      this.finding = null;
    });
    return this.finding;
  }

  private async find(): Promise<string | null> {
    try {
      let worker = await this.workerTarget();
      if (!worker) {
        const registered = await this.startWorker();
        if (!registered) return this.absent(this.help);
        worker = await this.waitForWorker();
        if (!worker) return this.absent(`The DeskPilot companion extension is installed but its worker did not start within ${START_TIMEOUT_MS / 1000} s; reload it at chrome://extensions.`);
      }
      const { sessionId } = await call(this.conn, 'Target.attachToTarget', { targetId: worker.targetId, flatten: true });
      // A worker started while a DevTools client watches service workers may wait for a debugger
      // before running its script, and chrome.* calls would then never answer. Harmless otherwise.
      await call(this.conn, 'Runtime.runIfWaitingForDebugger', undefined, { sessionId });
      this.sessionId = sessionId;
      this.absentUntil = 0;
      return sessionId;
    } catch (e) {
      return this.absent(`The DeskPilot companion extension could not be reached (${errorMessage(e)}).`);
    }
  }

  private absent(why: string): null {
    this.absentWhy = why;
    this.absentUntil = this.now() + ABSENT_TTL_MS;
    return null;
  }

  private async workerTarget(): Promise<TargetInfo | null> {
    const { targetInfos } = await call(this.conn, 'Target.getTargets', { filter: [{ type: 'service_worker' }] });
    return (targetInfos as TargetInfo[]).find((t) => t.type === 'service_worker' && t.url.startsWith(SCOPE)) ?? null;
  }

  private async waitForWorker(): Promise<TargetInfo | null> {
    const deadline = this.now() + START_TIMEOUT_MS;
    for (;;) {
      const w = await this.workerTarget();
      if (w || this.now() >= deadline) return w;
      await sleep(25);
    }
  }

  /**
   * Through a page's session: whether the profile has the extension's worker registered (the
   * registrations arrive before ServiceWorker.enable answers), and if so, starts it.
   */
  private async startWorker(): Promise<boolean> {
    const { targetInfos } = await call(this.conn, 'Target.getTargets', { filter: [{ type: 'page' }] });
    let page = (targetInfos as TargetInfo[]).find((t) => t.type === 'page' && !t.subtype)?.targetId ?? null;
    let hidden = false;
    if (!page) {
      // No tab open (a browser with only its window left): a hidden page lives as long as it is needed.
      // `hidden` is newer than the bundled protocol types.
      page = (await call(this.conn, 'Target.createTarget', { url: 'about:blank', hidden: true, background: true } as { url: string })).targetId;
      hidden = true;
    }
    const { sessionId } = await call(this.conn, 'Target.attachToTarget', { targetId: page, flatten: true });
    let registered = false;
    let listed: () => void = () => undefined;
    const firstList = new Promise<void>((resolve) => (listed = resolve));
    const event = `ServiceWorker.workerRegistrationUpdated.${sessionId}`;
    const listener: CdpListener = (p: { registrations?: Array<{ scopeURL: string; isDeleted?: boolean }> }) => {
      if (p.registrations?.some((r) => r.scopeURL === SCOPE && !r.isDeleted)) registered = true;
      listed();
    };
    this.conn.on(event, listener);
    try {
      await call(this.conn, 'ServiceWorker.enable', undefined, { sessionId });
      // The stored registrations come as one event (an empty list too) once they are read — on a
      // busy browser after enable has answered.
      await withTimeout(firstList, LIST_TIMEOUT_MS, () => new Error(`Chrome did not list its service workers within ${LIST_TIMEOUT_MS / 1000} s`));
      if (registered) await call(this.conn, 'ServiceWorker.startWorker', { scopeURL: SCOPE }, { sessionId });
      await call(this.conn, 'ServiceWorker.disable', undefined, { sessionId }).catch(() => undefined);
      return registered;
    } finally {
      this.conn.removeListener(event, listener);
      await call(this.conn, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
      if (hidden) await call(this.conn, 'Target.closeTarget', { targetId: page }).catch(() => undefined);
    }
  }
}

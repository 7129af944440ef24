// The D-Bus side of the KWin backend: one session-bus connection that (1) owns a unique name
// and exports a small receiver object KWin scripts call back with callDBus(..., json), and
// (2) loads, runs and unloads those scripts through KWin's org.kde.kwin.Scripting interface.
// KWin documents no other way for a program to act on other programs' windows on Wayland.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import dbus from '@particle/dbus-next';
import { errorMessage, WindowsUnavailableError } from '../../../engine/errors';

const KWIN = 'org.kde.KWin';
/** What the bus answers when nobody owns the name (KWin is not running in this session). */
const NOT_ON_THE_BUS = new Set(['org.freedesktop.DBus.Error.ServiceUnknown', 'org.freedesktop.DBus.Error.NameHasNoOwner']);
export const BRIDGE_PATH = '/org/deskpilot/KWinBridge';
export const BRIDGE_INTERFACE = 'org.deskpilot.KWinBridge';

/** Where a script sends its answer: the receiver this bridge exported. */
export interface BridgeAddress {
  service: string;
  path: string;
  iface: string;
}

/** One script's answer as the receiver got it: the token it was given and its JSON text. */
type Waiter = (json: string) => void;

/** The receiver object: KWin scripts call Answer(token, json) on it. */
class Receiver extends dbus.interface.Interface {
  constructor(private readonly deliver: (token: string, json: string) => void) {
    super(BRIDGE_INTERFACE);
  }

  Answer(token: string, json: string): void {
    this.deliver(token, json);
  }
}
Receiver.configureMembers({ methods: { Answer: { inSignature: 'ss', outSignature: '' } } });

/** Same name rules as D-Bus: elements of [A-Za-z0-9_], none starting with a digit. */
function uniqueServiceName(): string {
  return `org.deskpilot.KWinBridge.p${process.pid}_${randomUUID().slice(0, 8)}`;
}

export interface KwinBridgeOptions {
  /** The session bus address (DBUS_SESSION_BUS_ADDRESS of the KDE session). */
  busAddress: string;
  /** How long a script gets to answer before the call fails. */
  answerTimeoutMs: number;
}

export class KwinBridge {
  private readonly waiters = new Map<string, Waiter>();
  private scriptSeq = 0;
  private closed = false;
  private broken = false;

  private constructor(
    private readonly bus: dbus.MessageBus,
    readonly address: BridgeAddress,
    private readonly scriptDir: string,
    private readonly answerTimeoutMs: number,
  ) {}

  /** Connects to the session bus, owns a unique name and exports the receiver. */
  static async open(opts: KwinBridgeOptions): Promise<KwinBridge> {
    const bus = dbus.sessionBus({ busAddress: opts.busAddress });
    // dbus-next reports a failed connection as an 'error' event; without a listener it would throw.
    const failed = new Promise<never>((_, reject) => bus.once('error', (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)))));
    bus.on('error', () => {});
    const service = uniqueServiceName();
    let scriptDir: string | null = null;
    try {
      const reply = await Promise.race([bus.requestName(service, dbus.NameFlag.DO_NOT_QUEUE), failed]);
      if (reply !== dbus.RequestNameReply.PRIMARY_OWNER) throw new Error(`could not own the D-Bus name ${service} (reply ${reply})`);
      // Scripts are files KWin reads; a private folder keeps other users from swapping them.
      scriptDir = await mkdtemp(path.join(tmpdir(), 'deskpilot-kwin-'));
      const bridge = new KwinBridge(bus, { service, path: BRIDGE_PATH, iface: BRIDGE_INTERFACE }, scriptDir, opts.answerTimeoutMs);
      bus.export(BRIDGE_PATH, new Receiver((token, json) => bridge.deliver(token, json)));
      // A lost connection (the session ended, the bus restarted) makes this bridge useless: the backend opens a new one.
      bus.on('error', () => (bridge.broken = true));
      return bridge;
    } catch (err) {
      bus.disconnect();
      if (scriptDir) await rm(scriptDir, { recursive: true, force: true });
      throw new WindowsUnavailableError(`cannot reach the KDE session bus at ${opts.busAddress}: ${errorMessage(err)}`);
    }
  }

  /**
   * Loads `source` as a KWin script (it must call back with `token`), runs it, waits for its
   * answer (bounded) and unloads it. Resolves with the answer's JSON text.
   */
  async run(source: (token: string) => string, what: string): Promise<string> {
    if (this.closed) throw new WindowsUnavailableError('the KWin window backend has been disposed');
    const token = randomUUID();
    const plugin = `deskpilot_${process.pid}_${++this.scriptSeq}`;
    const file = path.join(this.scriptDir, `${plugin}.js`);
    await writeFile(file, source(token), { mode: 0o600 });
    const answer = this.awaitAnswer(token, what);
    try {
      const [id] = (await this.call('/Scripting', 'org.kde.kwin.Scripting', 'loadScript', 'ss', [file, plugin])) as [number];
      if (typeof id !== 'number' || id < 0) throw new WindowsUnavailableError(`KWin refused to load its script for ${what} (loadScript gave ${String(id)})`);
      await this.runScript(id);
      return await answer.promise;
    } finally {
      answer.cancel();
      await this.call('/Scripting', 'org.kde.kwin.Scripting', 'unloadScript', 's', [plugin]).catch(() => undefined);
      await rm(file, { force: true });
    }
  }

  /** Plain D-Bus method call on KWin (e.g. /KWin supportInformation). */
  async call(objectPath: string, iface: string, member: string, signature: string, body: unknown[]): Promise<unknown[]> {
    let reply: dbus.Message | null;
    try {
      reply = await this.bus.call(new dbus.Message({ destination: KWIN, path: objectPath, interface: iface, member, signature, body }));
    } catch (err) {
      if (err instanceof dbus.DBusError && NOT_ON_THE_BUS.has(err.type)) {
        throw new WindowsUnavailableError(`KWin (${KWIN}) is not on this session bus: is this a KDE Plasma session, and is KWin running? (${err.text})`);
      }
      throw new WindowsUnavailableError(`KWin did not take ${iface}.${member} on the session bus: ${errorMessage(err)}`);
    }
    return reply?.body ?? [];
  }

  /** False once the connection failed or close() ran. */
  get alive(): boolean {
    return !this.closed && !this.broken;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiters.values()) waiter('');
    this.waiters.clear();
    this.bus.disconnect();
    await rm(this.scriptDir, { recursive: true, force: true });
  }

  // -------------------------------------------------------------------------------------------

  /** Plasma 6 exports a loaded script at /Scripting/Script<N>, Plasma 5 at /<N>. */
  private async runScript(id: number): Promise<void> {
    try {
      await this.call(`/Scripting/Script${id}`, 'org.kde.kwin.Script', 'run', '', []);
    } catch {
      await this.call(`/${id}`, 'org.kde.kwin.Script', 'run', '', []);
    }
  }

  private deliver(token: string, json: string): void {
    const waiter = this.waiters.get(token);
    // An answer nobody waits for (late, after a timeout; or a stranger's call) is dropped.
    if (!waiter) return;
    this.waiters.delete(token);
    waiter(json);
  }

  private awaitAnswer(token: string, what: string): { promise: Promise<string>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const promise = new Promise<string>((resolve, reject) => {
      this.waiters.set(token, (json) => {
        clearTimeout(timer);
        if (this.closed) reject(new WindowsUnavailableError('the KWin window backend has been disposed'));
        else resolve(json);
      });
      timer = setTimeout(() => {
        this.waiters.delete(token);
        reject(new WindowsUnavailableError(`KWin did not answer within ${this.answerTimeoutMs} ms (${what}): its script ran but never called back`));
      }, this.answerTimeoutMs);
    });
    // Settled by run() on every path; an early failure must not leave an unhandled rejection.
    promise.catch(() => undefined);
    return {
      promise,
      cancel: () => {
        clearTimeout(timer);
        this.waiters.delete(token);
      },
    };
  }
}

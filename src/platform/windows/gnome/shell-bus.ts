// One session-bus connection to DeskPilot's GNOME Shell extension, through @particle/dbus-next
// (the maintained fork of dbus-next). Plain method calls by name: no introspection round trip,
// every call bounded in time, and every failure turned into the sentence a person acts on —
// above all "install the extension" when nothing owns its bus name.
import { DBusError, Message, sessionBus, type MessageBus } from '@particle/dbus-next';
import { DeskPilotError, WindowGoneError, errorMessage } from '../../../engine/errors';
import { BUS_NAME, ERROR_PREFIX, INTERFACE, OBJECT_PATH } from './extension-answers';

/** Said whenever the extension does not answer: what to run, and that GNOME needs a new login. */
export const INSTALL_HINT =
  'install the extension: deskpilot gnome-extension install (then log out and in: GNOME on Wayland loads a new extension only at login)';

const CONNECT_TIMEOUT_MS = 5000;
/** A healthy shell answers in a few ms and a placement within 3 s (the extension bounds it); a shell starved of CPU (a load of 20 on two cores) takes many times that. */
const CALL_TIMEOUT_MS = 15_000;

/** The extension cannot be reached (not installed, not enabled, no session bus): nothing ran. */
export class GnomeExtensionMissingError extends DeskPilotError {
  constructor(why: string) {
    super(`GNOME Shell: DeskPilot's extension does not answer (${why}); ${INSTALL_HINT}`, 'unavailable');
  }
}

/** Where the session bus is, from the environment DeskPilot was given; null when none is usable. */
export function sessionBusAddress(env: NodeJS.ProcessEnv): string | null {
  const address = env.DBUS_SESSION_BUS_ADDRESS?.trim();
  if (!address) return null;
  // "disabled:" (set for sandboxed children) or an autolaunch address cannot be dialled.
  return address.split(';').some((a) => /^(unix|tcp):/.test(a)) ? address : null;
}

export class ShellBus {
  private bus: MessageBus | null = null;
  private connecting: Promise<MessageBus> | null = null;
  private closed = false;

  constructor(private readonly address: string) {}

  /** Calls a method of org.deskpilot.Windows1 and resolves with its out arguments. */
  async call(member: string, signature = '', body: unknown[] = []): Promise<unknown[]> {
    const bus = await this.connection();
    const msg = new Message({ destination: BUS_NAME, path: OBJECT_PATH, interface: INTERFACE, member, signature, body });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeskPilotError(`GNOME Shell did not answer ${member} within ${CALL_TIMEOUT_MS} ms`, 'unavailable')), CALL_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const reply = await Promise.race([bus.call(msg), timeout]);
      return reply?.body ?? [];
    } catch (err) {
      throw translate(err, member, body);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.closed = true;
    this.drop();
  }

  private connection(): Promise<MessageBus> {
    if (this.closed) return Promise.reject(new DeskPilotError('the GNOME window backend has been disposed', 'unavailable'));
    if (this.bus) return Promise.resolve(this.bus);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private connect(): Promise<MessageBus> {
    return new Promise<MessageBus>((resolve, reject) => {
      let bus: MessageBus;
      try {
        bus = sessionBus({ busAddress: this.address });
      } catch (err) {
        reject(new GnomeExtensionMissingError(`the session bus at ${this.address} cannot be used: ${errorMessage(err)}`));
        return;
      }
      const timer = setTimeout(() => fail(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      timer.unref();
      const fail = (err: unknown) => {
        clearTimeout(timer);
        if (this.bus === bus) this.drop();
        else bus.disconnect();
        reject(new GnomeExtensionMissingError(`the session bus at ${this.address} cannot be reached: ${errorMessage(err)}`));
      };
      // A stream error after connecting (the bus went away) costs the connection; the next call dials again.
      bus.on('error', (err) => (this.bus === bus ? this.drop() : fail(err)));
      bus.on('connect', () => {
        clearTimeout(timer);
        if (this.closed) {
          bus.disconnect();
          reject(new DeskPilotError('the GNOME window backend has been disposed', 'unavailable'));
          return;
        }
        this.bus = bus;
        resolve(bus);
      });
    });
  }

  private drop(): void {
    const bus = this.bus;
    this.bus = null;
    try {
      bus?.disconnect();
    } catch {
      // already closed
    }
  }
}

/** A D-Bus error as DeskPilot's: gone windows, refusals, and the extension missing or too old. */
function translate(err: unknown, member: string, body: unknown[]): unknown {
  if (err instanceof DeskPilotError) return err;
  if (!(err instanceof DBusError)) return err;
  const kind = err.type.startsWith(ERROR_PREFIX) ? err.type.slice(ERROR_PREFIX.length) : err.type;
  switch (kind) {
    case 'NoSuchWindow':
      return new WindowGoneError(String(body[0]));
    case 'InvalidArgument':
      return new DeskPilotError(`GNOME Shell refused ${member}: ${err.text}`, 'invalid_argument');
    case 'Refused':
      return new DeskPilotError(`GNOME Shell refused: ${err.text}`, 'refused');
    case 'org.freedesktop.DBus.Error.ServiceUnknown':
    case 'org.freedesktop.DBus.Error.NameHasNoOwner':
      return new GnomeExtensionMissingError('nothing on the session bus owns org.deskpilot.Windows1: the extension is not installed, not enabled, or GNOME Shell has not loaded it yet');
    case 'org.freedesktop.DBus.Error.UnknownMethod':
    case 'org.freedesktop.DBus.Error.UnknownObject':
    case 'org.freedesktop.DBus.Error.UnknownInterface':
      return new DeskPilotError(
        `GNOME Shell: the DeskPilot extension running now has no ${member} (it is older than this DeskPilot); update it: deskpilot gnome-extension install, then log out and in`,
        'unavailable',
      );
    default:
      return new DeskPilotError(`GNOME Shell failed ${member}: ${err.text || err.type}`, 'unavailable');
  }
}

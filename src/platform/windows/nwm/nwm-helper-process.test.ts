import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WindowsUnavailableError } from '../../../engine/errors';
import { createNwmWindowBackend, type NwmBackendOptions, type NwmWindowBackend } from './nwm-backend';
import { processAlive } from './process-alive';
import { FakeDesktop, runningHelpers, type FakeFault, type Scenario } from './test-fixtures/fake-desktop';
import { POLL, waitFor } from '../../../../tests/support/wait-for';

// The helper process around the addon: loading, crashes, hangs, restarts. The addon is a fake
// node-window-manager addon; the fork, the IPC, the timeouts and the deaths are real.

const NOTEPAD = 'C:\\Windows\\System32\\notepad.exe';

const scenario = (extra: Partial<Scenario> = {}): Scenario => ({
  platform: 'win32',
  active: 1,
  monitors: [
    { handle: 1, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 }, primary: true, scale: 1 },
  ],
  windows: [
    { handle: 1, pid: 11, path: NOTEPAD, title: 'one', visible: true, owner: 0, bounds: { x: 0, y: 0, width: 800, height: 600 } },
    { handle: 2, pid: 12, path: NOTEPAD, title: 'two', visible: true, owner: 0, bounds: { x: 800, y: 0, width: 800, height: 600 } },
  ],
  ...extra,
});

const opened: Array<{ fake: FakeDesktop | null; backend: NwmWindowBackend }> = [];

function open(s: Scenario, options: NwmBackendOptions = {}) {
  const fake = new FakeDesktop(s);
  const backend = createNwmWindowBackend({ platform: 'win32', addonModule: fake.modulePath, ...options });
  opened.push({ fake, backend });
  return { fake, backend };
}

const fault = (fn: string, action: FakeFault['action']): FakeFault => ({ fn, action, once: true });

/** The request deadline of the hung-request test: short enough to wait out, long enough for a healthy answer. */
const HUNG_TIMEOUT_MS = 3000;

/** A request that must succeed, tried again while it only timed out (a helper that was slow to start). */
async function answered<T>(what: string, request: () => Promise<T>): Promise<T> {
  const result = await waitFor(`an answer to ${what}`, () =>
    request().then(
      (value) => ({ value }),
      (e: unknown) => {
        if (e instanceof WindowsUnavailableError && /did not answer/.test(e.message)) return undefined;
        throw e;
      },
    ),
  );
  return result.value;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WindowsUnavailableError);
  return error as Error;
}

afterEach(async () => {
  for (const { fake, backend } of opened.splice(0)) {
    await backend.dispose();
    fake?.cleanup();
  }
  expect(runningHelpers()).toEqual([]);
});

afterAll(() => {
  expect(runningHelpers()).toEqual([]);
});

describe('the window helper process (fake node-window-manager addon)', () => {
  it('starts lazily, serves several requests from one process, and stops on dispose', async () => {
    const { backend } = open(scenario());
    expect(backend.helperPid()).toBeNull();
    const [a, b] = await Promise.all([backend.listWindows(), backend.listMonitors()]);
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(1);
    const pid = backend.helperPid()!;
    expect(await processAlive(pid)).toBe(true);
    await backend.focus('2');
    expect(backend.helperPid()).toBe(pid);
    await backend.dispose();
    expect(await processAlive(pid)).toBe(false);
    await expect(backend.listWindows()).rejects.toThrow(/shut down/);
  });

  it('a helper that exits mid-request fails it clearly, and the next request restarts it', async () => {
    const { fake, backend } = open(scenario({ faults: [fault('setWindowBounds', 'exit')] }));
    await backend.listWindows();
    const first = backend.helperPid()!;

    const error = await failure(backend.setFrameBounds('1', [0, 0, 500, 500]));
    expect(error.message).toBe('the window helper crashed (exit code 7); it will restart on the next command');
    expect(await processAlive(first)).toBe(false);

    expect(await backend.setFrameBounds('1', [0, 0, 500, 500])).toEqual([0, 0, 500, 500]);
    expect(backend.helperPid()).not.toBe(first);
    expect(fake.calls().filter((c) => c.fault)).toHaveLength(1);
  });

  it('a native abort fails every request in flight, and the helper comes back', async () => {
    const { backend } = open(scenario({ faults: [fault('getMonitors', 'abort')] }));
    const results = await Promise.allSettled([backend.listWindows(), backend.focus('2')]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(WindowsUnavailableError);
      expect(reason.message).toMatch(/^the window helper crashed \(signal SIGABRT\); it will restart on the next command$/);
    }
    expect((await backend.listWindows()).map((w) => w.id)).toEqual(['1', '2']);
  });

  it('a crash message carries what the helper last printed, without stack frames', async () => {
    const { backend } = open(scenario({ faults: [fault('getWindowBounds', 'assert')] }));
    const error = await failure(backend.listWindows());
    expect(error.message).toEqual(
      expect.stringMatching(/^the window helper crashed \(signal SIGABRT: node\[\d+\]: \.\.\/lib\/macos\.mm:52: Assertion `window != NULL' failed\.\); it will restart on the next command$/),
    );
  });

  it('dispose fails the requests in flight and leaves no helper behind', async () => {
    const { backend } = open(scenario({ faults: [fault('getWindows', 'hang')] }));
    const pending = failure(backend.listWindows());
    const pid = backend.helperPid()!;
    await backend.dispose();
    expect((await pending).message).toBe('the window helper was shut down');
    expect(await processAlive(pid)).toBe(false);
  });

  it('a hung request times out, the stuck helper is killed, and the next request works', async () => {
    // The deadline also covers starting a helper, which can take seconds on a busy machine: the
    // requests that should succeed get another go after a timeout; only the hung one must time out.
    const { backend } = open(scenario({ faults: [fault('getWindows', 'hang')] }), { requestTimeoutMs: HUNG_TIMEOUT_MS });
    await answered('focus', () => backend.focus('1')); // start the helper
    const stuck = backend.helperPid()!;

    const [hung, queued] = await Promise.allSettled([backend.listWindows(), backend.focus('2')]);
    const hungError = (hung as PromiseRejectedResult).reason as Error;
    expect(hungError).toBeInstanceOf(WindowsUnavailableError);
    expect(hungError.message).toMatch(new RegExp(`did not answer "listWindows" within ${HUNG_TIMEOUT_MS} ms .*will restart on the next command`));
    // Queued behind the stuck native call, it went down with the helper.
    expect(((queued as PromiseRejectedResult).reason as Error).message).toMatch(/restarted because "listWindows" did not answer in time/);
    // Killed, not left to finish its minute-long native call.
    await expect.poll(() => processAlive(stuck), POLL).toBe(false);

    expect(await answered('listWindows', () => backend.listWindows())).toHaveLength(2);
    expect(backend.helperPid()).not.toBe(stuck);
  });

  it('an exception inside the addon is an error for that request only', async () => {
    const { backend } = open(scenario({ faults: [fault('bringWindowToTop', 'throw')] }));
    await backend.listWindows();
    const pid = backend.helperPid();
    expect((await failure(backend.focus('1'))).message).toBe('fake native failure');
    await backend.focus('1');
    expect(backend.helperPid()).toBe(pid);
  });
});

describe('loading the addon (fake node-window-manager addon)', () => {
  it('an addon that fails to load is a clear error on every request, not a dead helper', async () => {
    const { backend } = open(scenario({ loadError: 'dlopen(addon.node): incompatible architecture' }));
    for (let i = 0; i < 2; i++) {
      const error = await failure(backend.listWindows());
      expect(error.message).toMatch(/^node-window-manager could not be loaded \(.*fake-node-window-manager\.js\): dlopen\(addon\.node\): incompatible architecture$/);
    }
    expect(await processAlive(backend.helperPid()!)).toBe(true);
  });

  it('a module that is not installed is a load error that says how to install it', async () => {
    const backend = createNwmWindowBackend({ platform: 'darwin', addonModule: 'no-such-window-manager' });
    opened.push({ fake: null, backend });
    expect((await failure(backend.listWindows())).message).toMatch(
      /^node-window-manager is not installed \(no-such-window-manager\): npm installs it on macOS and Windows only\. Run `npm install` in the DeskPilot folder/,
    );
  });

  it('on Linux npm does not install the real node-window-manager (it would only compile an empty addon), and the helper says so', async () => {
    const backend = createNwmWindowBackend({ platform: 'win32' });
    opened.push({ fake: null, backend });
    expect((await failure(backend.listWindows())).message).toMatch(/^node-window-manager is not installed \(node-window-manager\): npm installs it on macOS and Windows only/);
  });

  it('a missing helper script is a clear error', async () => {
    const backend = createNwmWindowBackend({ platform: 'win32', workerPath: '/nonexistent/nwm-worker.js' });
    opened.push({ fake: null, backend });
    expect((await failure(backend.listWindows())).message).toMatch(/helper script is missing \(\/nonexistent\/nwm-worker\.js\)/);
  });

  it('other platforms are refused up front', () => {
    expect(() => createNwmWindowBackend({ platform: 'linux' })).toThrow(/only supports macOS and Windows, not linux/);
  });
});

import { connectSync, type SyncConnection } from '../../src/platform/sync/sync-connection';
import { newDeviceKey, newEnrollKey, userIdOf } from '../../src/platform/sync/sync-secret';
import { waitFor } from '../support/wait-for';

// Plain document clients of a real sync server, for the hardening tests: each pairs as a first
// device of one made-up user (the enroll key lets in any device id of that user), so a test can
// put clients on several server processes and watch a change travel between them.

export interface DocClients {
  connect(url: string): Promise<SyncConnection>;
  closeAll(): void;
}

export function docClients(): DocClients {
  const enrollKey = newEnrollKey();
  const userId = userIdOf(enrollKey);
  const open: SyncConnection[] = [];
  let n = 0;
  return {
    connect: async (url) => {
      const c = connectSync({ url, token: { userId, deviceId: `device-h4-${String(++n).padStart(4, '0')}`, deviceKey: newDeviceKey(), enrollKey } });
      open.push(c);
      await c.ready;
      return c;
    },
    closeAll: () => open.splice(0).forEach((c) => c.close()),
  };
}

/** Sets a value on one client and waits until another sees it. */
export async function changeFlows(from: SyncConnection, to: SyncConnection, key: string): Promise<void> {
  const value = `${key}-${Date.now()}`;
  from.ydoc.getMap('h4-probe').set(key, value);
  await waitFor(`"${key}" to reach the other client`, () => to.ydoc.getMap('h4-probe').get(key) === value);
}

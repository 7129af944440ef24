import { BRIDGE_EVENTS, BridgeSide } from './bridge';
import { world } from './dom';

// Runs in the page's main world before its own scripts: defines on `window` what the preload
// exposed through contextBridge — read-only, as Electron defines it — and says it is listening.

const bridge = new BridgeSide('main');

function freeze(v: unknown): unknown {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) freeze(x);
    Object.freeze(v);
  }
  return v;
}

world.document.addEventListener(BRIDGE_EVENTS.expose, (e) => {
  const { key, value } = e.detail as { key: string; value: unknown };
  if (Object.hasOwn(world, key)) return;
  Object.defineProperty(world, key, { value: freeze(bridge.decode(value)), enumerable: true, writable: false, configurable: false });
});
bridge.dispatch(BRIDGE_EVENTS.hello, null);

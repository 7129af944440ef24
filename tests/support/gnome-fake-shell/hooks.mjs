// Module resolution hooks for loading DeskPilot's GNOME 45+ extension in Node (a fake shell):
// gi://Name and resource:///org/gnome/shell/… resolve to the small stand-ins in fake-modules.mjs.
// Registered by runner.mjs; only tests use this.
import { URL } from 'node:url';

const FAKES = new URL('./fake-modules.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('gi://')) return { url: `${FAKES}?gi=${specifier.slice(5)}`, shortCircuit: true };
  if (specifier.startsWith('resource:///org/gnome/shell/')) return { url: `${FAKES}?resource=${specifier.slice('resource:///org/gnome/shell/'.length)}`, shortCircuit: true };
  return next(specifier, context);
}

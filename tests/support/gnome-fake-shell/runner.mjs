// Loads an assembled extension.js in a fake GNOME Shell and prints, as JSON, what it did:
//   node runner.mjs esm <extension.js>     as GNOME 45+ does (an ES module, default export enabled)
//   node runner.mjs legacy <extension.js>  as GNOME 43/44 do (a script; init() returns enable/disable)
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

register('./hooks.mjs', import.meta.url);
const { Gio, GLib, Meta, Main, Extension, shellGlobal } = await import('./fake-modules.mjs');
const [form, file] = process.argv.slice(2);
globalThis.global = shellGlobal;

let extension;
if (form === 'esm') {
  const mod = await import(pathToFileURL(file).href);
  const base = (await import('resource:///org/gnome/shell/extensions/extension.js')).Extension;
  extension = new mod.default({ uuid: 'deskpilot@deskpilot.app' });
  globalThis.fakeShell.extendsExtension = extension instanceof base && base === Extension;
} else {
  const imports = { gi: { Gio, GLib, Meta }, ui: { main: Main }, misc: { config: { PACKAGE_VERSION: '43.9' } } };
  const context = vm.createContext({ imports, global: shellGlobal });
  vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file });
  extension = context.init();
}
extension.enable();
const { service } = globalThis.fakeShell;
const answers = { Info: JSON.parse(service.Info()), List: JSON.parse(service.List()) };
extension.disable();
process.stdout.write(JSON.stringify({ ...globalThis.fakeShell, service: undefined, answers }));

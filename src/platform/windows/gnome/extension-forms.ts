// The two forms of DeskPilot's GNOME Shell extension. GNOME 43/44 load extension.js as a script
// (imports.gi, init()); GNOME 45 and later load it as an ES module (import … from 'gi://…',
// export default class extends Extension), and a file cannot be both. The logic lives once in
// windows-service.js, which imports nothing; extension.js is that file followed by the entry of
// the running GNOME's form, and metadata.json declares only that form's versions (GNOME refuses
// an extension whose shell-version does not list it).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export type ExtensionForm = 'legacy' | 'esm';

/** The GNOME Shell major versions each form declares. 45+ was checked for syntax and wiring only: not run here (Debian 12 has 43). */
export const FORM_SHELL_VERSIONS: Record<ExtensionForm, readonly string[]> = {
  legacy: ['43', '44'],
  esm: ['45', '46', '47', '48'],
};

const ENTRY_FILE: Record<ExtensionForm, string> = { legacy: 'entry-legacy.js', esm: 'entry-esm.js' };
const SERVICE_FILE = 'windows-service.js';

export type FormChoice = { form: ExtensionForm; note: string | null } | { form: null; problem: string };

/** Which form a GNOME Shell version ("43.9", "46.0", "48.beta") needs, or why none can be chosen. */
export function extensionFormFor(version: string | null): FormChoice {
  const major = version === null ? NaN : Number(/^(\d+)/.exec(version.trim())?.[1]);
  if (!Number.isInteger(major)) {
    return {
      form: null,
      problem:
        `could not tell which GNOME Shell this is (${version === null ? '`gnome-shell --version` did not answer' : `"${version}" is not a version`}), ` +
        'and GNOME 43–44 and GNOME 45 or later need different forms of the extension: run this where GNOME Shell is installed, ' +
        'or name the version, e.g. DESKPILOT_GNOME_SHELL_VERSION=46 deskpilot gnome-extension install',
    };
  }
  if (major < 43) return { form: null, problem: `GNOME Shell ${version} is older than the extension supports (43 and later)` };
  const form: ExtensionForm = major <= 44 ? 'legacy' : 'esm';
  const declared = FORM_SHELL_VERSIONS[form];
  const note = declared.includes(String(major))
    ? null
    : `it is written for GNOME Shell ${declared[0]}–${declared[declared.length - 1]}; this system has ${version}, which may refuse to load it`;
  return { form, note };
}

/** The files of the installed extension (name → content) for a form, from the shipped sources. */
export async function assembleExtension(source: string, form: ExtensionForm): Promise<Map<string, string>> {
  const [service, entry, metadata] = await Promise.all(
    [SERVICE_FILE, ENTRY_FILE[form], 'metadata.json'].map((f) => readFile(path.join(source, f), 'utf8')),
  );
  const meta = JSON.parse(metadata!) as Record<string, unknown>;
  meta['shell-version'] = [...FORM_SHELL_VERSIONS[form]];
  // The entry comes last: an ES module's imports may stand anywhere at top level, and the service's function is hoisted.
  const extension = `// Written by \`deskpilot gnome-extension install\` (${form} form): ${SERVICE_FILE} + ${ENTRY_FILE[form]}.\n${service}\n${entry}`;
  return new Map([
    ['extension.js', extension],
    ['metadata.json', `${JSON.stringify(meta, null, 2)}\n`],
  ]);
}

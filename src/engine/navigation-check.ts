import type { PreparedBatch, ResolvedCommand } from '../protocol/prepared-batch';
import type { FieldError } from '../protocol/validation';
import { errorMessage } from './errors';
import { needsYes } from './open-url-target';
import type { ChromeBackend } from './ports';

// Before a batch runs (and when it is prepared, so a dry run or a confirmation shows it): every
// address it opens is put to the Chrome port, which knows the browser's DevTools endpoint and
// refuses what would hand a page control of the browser. A batch that arrives from elsewhere
// must also have asked about every non-web address it opens.

export type NavigationCheck = { ok: true } | { ok: false; unavailable: boolean; errors: FieldError[] };

export async function checkNavigations(
  commands: readonly ResolvedCommand[],
  chrome: () => Promise<ChromeBackend>,
  confirm?: PreparedBatch['confirm'],
): Promise<NavigationCheck> {
  const opens = commands.flatMap((c, index) => (c.type === 'open_url' ? [{ index, url: c.url }] : []));
  if (opens.length === 0) return { ok: true };
  const errors: FieldError[] = [];
  if (confirm) {
    for (const o of opens) {
      if (needsYes(o.url) && !confirm.some((c) => c.index === o.index && c.kind === 'open_url')) {
        errors.push({ path: `commands[${o.index}].url`, message: `${o.url} is not a web address and the batch does not ask about it, so it is not opened` });
      }
    }
  }
  let backend: ChromeBackend;
  let refusals: Array<string | null>;
  try {
    backend = await chrome();
    refusals = await Promise.all(opens.map((o) => backend.navigationRefusal(o.url)));
  } catch (e) {
    return { ok: false, unavailable: true, errors: [{ path: `commands[${opens[0]!.index}]`, message: errorMessage(e) }] };
  }
  opens.forEach((o, i) => {
    const refusal = refusals[i];
    if (refusal) errors.push({ path: `commands[${o.index}].url`, message: refusal });
  });
  return errors.length ? { ok: false, unavailable: false, errors } : { ok: true };
}

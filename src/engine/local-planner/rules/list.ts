import type { ClauseResult } from '../result';
import { ok } from '../result';

// "list tabs", "show me my open tabs", "what tabs do I have open" → list_tabs;
// "show running apps", "what apps are running", "what's running" → list_apps.
// A question that only asks for the list is answered by listing it; counting and filtering
// questions ("how many…", "which tabs are from github") are queries (see question rule).

const SHOW = '(?:list|show|display|see|view|give|get|print|enumerate|tell)(?: me| us)?';
const ALL = '(?: all| every one of| each of)?(?: of)?(?: my| the| our)?';

const TAB_ADJ = '(?: (?:open|opened|current|chrome|browser|existing|active))*';
const TABS = `(?:tabs|chrome tabs|browser tabs)`;
const TAB_TAIL = '(?: (?:open|that are open|i have open|i have|i have got|in chrome|in the browser|right now|currently open|across all windows))*';

const APP_ADJ = '(?: (?:running|open|opened|active|current|launched))*';
const APPS = '(?:apps|applications|programs|processes|windows|app windows)';
const APP_TAIL = '(?: (?:running|open|that are running|that are open|i have open|i have running|i have|right now|currently running|currently open))*';

const LIST_TABS = [
  new RegExp(`^${SHOW}${ALL}${TAB_ADJ} ${TABS}${TAB_TAIL}$`),
  new RegExp(`^(?:what|which) ${TABS} (?:do i have|have i got|are there|are|i have)(?: open| opened)?(?: right now| in chrome| currently)?$`),
  new RegExp(`^(?:what|which) ${TABS} (?:are )?(?:currently )?open(?: right now| in chrome)?$`),
  /^(?:what is|whats) open in (?:chrome|the browser|my browser)$/,
  new RegExp(`^(?:my |all |all my |open |my open |all open )?${TABS}$`),
  new RegExp(`^list ${TABS}$`),
];

const LIST_APPS = [
  new RegExp(`^${SHOW}${ALL}${APP_ADJ} ${APPS}${APP_TAIL}$`),
  new RegExp(`^(?:what|which) ${APPS} (?:are|do i have|have i got|are there)(?: currently)?(?: running| open)(?: right now)?$`),
  /^(?:what is|whats) (?:running|open)(?: right now)?$/,
  new RegExp(`^(?:my |all |all my )?(?:running|open) ${APPS}$`),
  new RegExp(`^list ${APPS}$`),
  /^list (?:running|everything running)$/,
];

export function listRule(clause: string): ClauseResult | null {
  if (LIST_TABS.some((re) => re.test(clause))) return ok({ type: 'list_tabs' });
  if (LIST_APPS.some((re) => re.test(clause))) return ok({ type: 'list_apps' });
  return null;
}

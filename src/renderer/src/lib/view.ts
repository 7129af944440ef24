export type View = 'launcher' | 'popover' | 'settings';

const VIEWS: readonly View[] = ['launcher', 'popover', 'settings'];

/** `?view=launcher|popover|settings`; anything else is the popover. */
export function viewFromSearch(search: string): View {
  const v = new URLSearchParams(search).get('view');
  return VIEWS.includes(v as View) ? (v as View) : 'popover';
}

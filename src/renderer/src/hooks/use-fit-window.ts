import { useEffect } from 'react';
import { call } from '../lib/api';

// The launcher's window is as tall as its content: after every layout change the page tells
// main the height it needs (window:fit). Growing is asked for at once, so an opening list has
// room to ease into; shrinking waits a moment, so a list that shrinks on several keys in a row
// while words are typed resizes the window once, when the typing pauses.

/** How long a shrink waits for the next change: a little longer than the height transitions of animated-height.tsx (styles/popover.css). */
const SHRINK_DELAY_MS = 180;

/** Room below a dialog that floats over the content. */
const DIALOG_MARGIN = 12;

/** The page's height once every animated block has reached its content's height, and room for an open dialog. */
function targetHeight(root: HTMLElement): number {
  let h = root.offsetHeight;
  for (const outer of root.querySelectorAll<HTMLElement>('[data-animated-height]')) {
    const inner = outer.firstElementChild as HTMLElement | null;
    if (inner) h += inner.offsetHeight - outer.offsetHeight;
  }
  for (const dialog of root.querySelectorAll<HTMLElement>('[role="alertdialog"]')) {
    h = Math.max(h, dialog.getBoundingClientRect().bottom + window.scrollY + DIALOG_MARGIN);
  }
  return Math.ceil(h);
}

export function useFitWindow(enabled: boolean): void {
  useEffect(() => {
    const root = document.getElementById('root');
    if (!enabled || !root) return;
    let asked = Math.ceil(window.innerHeight);
    let shrink: ReturnType<typeof setTimeout> | undefined;
    const ask = (height: number) => {
      if (height === asked) return;
      asked = height;
      void call((api) => api.windowFit({ height }));
    };
    const update = () => {
      const want = targetHeight(root);
      clearTimeout(shrink);
      if (want >= asked) ask(want);
      else shrink = setTimeout(() => ask(targetHeight(root)), SHRINK_DELAY_MS);
    };
    const observer = new ResizeObserver(update);
    observer.observe(root);
    // The animated blocks' contents change size before their outer boxes follow.
    const watchInner = () => {
      for (const el of root.querySelectorAll('[data-animated-height] > *')) observer.observe(el);
    };
    watchInner();
    const mutations = new MutationObserver(watchInner);
    mutations.observe(root, { childList: true, subtree: true });
    update();
    return () => {
      clearTimeout(shrink);
      observer.disconnect();
      mutations.disconnect();
    };
  }, [enabled]);
}

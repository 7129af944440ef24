import { useLayoutEffect, useRef, type ReactNode } from 'react';

// A block whose height follows its content: it eases open when the content grows (the
// launcher grows with its list instead of jumping). The content is laid out at once; only the
// visible height eases, so what is new is painted in the same frame and revealed as it opens.
// Shrinking takes the new height at once: the content is already the shorter one and nothing
// is drawn below the block, so an eased shrink showed nothing but cost a frame of style,
// layout and paint for every display refresh of its 140 ms (more when frames are drawn as soon
// as they are ready) — and the list shrinks on most keys while words are typed. The window
// itself shrinks a moment later (use-fit-window.ts).
// While `growsAtOnce` says so (the launcher: while words are typed), growing is at once too.
// A key every 120 ms or so lands in the middle of a 140 ms ease, and a key that comes while
// frames are still being drawn waits for the next display refresh (up to 16.7 ms) before its
// list is drawn; in the UI bench most keys over 14 ms were such keys. An eased grow also
// shows the new rows only as it opens, not within the frame of the key.
// The height (and the fade class below) is written to the element from the ResizeObserver's
// callback, not kept in React state: the callback runs inside the frame, after layout, and the
// browser lays out again before painting, so the frame that shows new content has its new
// height. Through state, every change of the content's height (most keys while typing) was
// also a render and commit of this block.
// `data-animated-height` lets the window-fit hook size the window to where the height is going.
// The fade at a scrolled edge (scroll-fade) is on only while the content is taller than the
// block at rest: a mask makes every repaint of the content cost more (the list repaints on each
// key). While the height eases open the content is taller than the block by design (it is
// being revealed), so the block is measured for the fade only once no transition is running:
// otherwise every opening turned the mask (and its scroll-driven animation) on for the whole
// transition.

export function AnimatedHeight({ className, growsAtOnce, children }: { className?: string; growsAtOnce?: () => boolean; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  // Read when the content resizes (in the observer below, set up once), so the newest one;
  // kept current after each commit, before the frame's resize observations run.
  const atOnce = useRef(growsAtOnce);
  useLayoutEffect(() => {
    atOnce.current = growsAtOnce;
  });

  useLayoutEffect(() => {
    const box = outer.current;
    const el = inner.current;
    if (!box || !el) return;
    /** The height the block was given last (null: none yet, it takes its content's). */
    let px: number | null = null;
    /** Whether the content is taller than the block, once the block has reached its height. */
    const fits = () => {
      if (box.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')) return;
      box.classList.toggle('scroll-fade', el.offsetHeight > box.clientHeight + 1);
    };
    const contentResized = () => {
      const h = el.offsetHeight;
      if (h !== px) {
        // Growing eases open (the stylesheet's transition); shrinking, the first height, or
        // growing while the owner says so (words being typed), is at once.
        box.style.transition = px === null || h < px || atOnce.current?.() ? 'none' : '';
        box.style.height = `${h}px`;
        px = h;
      }
      // Growing: measure once the height has eased open (transitionend).
      // Shrinking, or an unchanged height (the window changed): at once.
      if (h <= box.clientHeight) fits();
    };
    contentResized();
    fits();
    const content = new ResizeObserver(contentResized);
    content.observe(el);
    // The block's own size follows its height (every frame of a transition) and the window.
    const block = new ResizeObserver(fits);
    block.observe(box);
    box.addEventListener('transitionend', fits);
    box.addEventListener('transitioncancel', fits);
    return () => {
      content.disconnect();
      block.disconnect();
      box.removeEventListener('transitionend', fits);
      box.removeEventListener('transitioncancel', fits);
    };
  }, []);

  // className is the same on every render, so React never rewrites the class attribute and the
  // scroll-fade class set above stays; the height is never a React prop.
  return (
    <div ref={outer} className={`animated-height${className ? ` ${className}` : ''}`} data-animated-height="">
      <div ref={inner} className="animated-height-inner">
        {children}
      </div>
    </div>
  );
}

import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

// A block whose height follows its content: it eases open when the content grows (the
// launcher grows with its list instead of jumping). The content is laid out at once; only the
// visible height eases, so what is new is painted in the same frame and revealed as it opens.
// Shrinking takes the new height at once: the content is already the shorter one and nothing
// is drawn below the block, so an eased shrink showed nothing but cost a frame of style,
// layout and paint for every display refresh of its 140 ms (more when frames are drawn as soon
// as they are ready) — and the list shrinks on most keys while words are typed. The window
// itself shrinks a moment later (use-fit-window.ts).
// `data-animated-height` lets the window-fit hook size the window to where the height is going.
// The fade at a scrolled edge (scroll-fade) is on only while the content is taller than the
// block at rest: a mask makes every repaint of the content cost more (the list repaints on each
// key). While the height eases open the content is taller than the block by design (it is
// being revealed), so the block is measured for the fade only once no transition is running:
// otherwise every opening turned the mask (and its scroll-driven animation) on for the whole
// transition, and each of its frames re-rendered this component.

export function AnimatedHeight({ className, children }: { className?: string; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  /** The content's height, and whether the block takes it at once (a shrink) or eases to it. */
  const [height, setHeight] = useState<{ px: number; instant: boolean } | null>(null);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const box = outer.current;
    const el = inner.current;
    if (!box || !el) return;
    /** Whether the content is taller than the block, once the block has reached its height. */
    const fits = () => {
      if (box.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running')) return;
      setOverflows(el.offsetHeight > box.clientHeight + 1);
    };
    const contentResized = () => {
      const h = el.offsetHeight;
      setHeight((was) => (was?.px === h ? was : { px: h, instant: was !== null && h < was.px }));
      // Growing: the height eases open from the next render; measure once it has (transitionend).
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

  return (
    <div
      ref={outer}
      className={`animated-height${overflows ? ' scroll-fade' : ''}${className ? ` ${className}` : ''}`}
      data-animated-height=""
      style={height === null ? undefined : height.instant ? { height: height.px, transition: 'none' } : { height: height.px }}
    >
      <div ref={inner} className="animated-height-inner">
        {children}
      </div>
    </div>
  );
}

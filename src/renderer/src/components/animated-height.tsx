import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

// A block whose height follows its content with a short transition (the launcher grows and
// shrinks with its list instead of jumping). The content is laid out at once; only the
// visible height eases, so what is new is painted in the same frame and revealed as it opens.
// `data-animated-height` lets the window-fit hook size the window to where the height is going.
// The fade at a scrolled edge (scroll-fade) is on only while the content is taller than the
// block: a mask makes every repaint of the content cost more (the list repaints on each key).

export function AnimatedHeight({ className, children }: { className?: string; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const box = outer.current;
    const el = inner.current;
    if (!box || !el) return;
    const measure = () => {
      setHeight(el.offsetHeight);
      setOverflows(el.offsetHeight > box.clientHeight + 1);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={outer}
      className={`animated-height${overflows ? ' scroll-fade' : ''}${className ? ` ${className}` : ''}`}
      data-animated-height=""
      style={height === null ? undefined : { height }}
    >
      <div ref={inner} className="animated-height-inner">
        {children}
      </div>
    </div>
  );
}

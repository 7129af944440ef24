import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

// A block whose height follows its content with a short transition (the launcher grows and
// shrinks with its list instead of jumping). The content is laid out at once; only the
// visible height eases, so what is new is painted in the same frame and revealed as it opens.
// `data-animated-height` lets the window-fit hook size the window to where the height is going.

export function AnimatedHeight({ className, children }: { className?: string; children: ReactNode }) {
  const inner = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number | null>(null);

  useLayoutEffect(() => {
    const el = inner.current;
    if (!el) return;
    const measure = () => setHeight(el.offsetHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div className={`animated-height scroll-fade${className ? ` ${className}` : ''}`} data-animated-height="" style={height === null ? undefined : { height }}>
      <div ref={inner} className="animated-height-inner">
        {children}
      </div>
    </div>
  );
}

// Work that should not hold up the frame a key press is drawn in (asking main for the plan
// preview: an IPC message out, and its answer re-rendering the list) runs once that frame has
// been painted: the task after its animation frame. A window that draws no frames (hidden,
// throttled) still runs it, after FALLBACK_MS.

const FALLBACK_MS = 50;

export function afterNextPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, FALLBACK_MS);
}

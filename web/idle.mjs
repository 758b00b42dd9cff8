// Work that waits: for an idle moment of the page (requestIdleCallback where the browser has
// it; Safari does not, so a short timeout with a deadline of a few milliseconds stands in), or
// for the next animation frame, once however often it is asked for.

/** @param {(deadline: { timeRemaining(): number }) => void} task */
export function whenIdle(task, timeout = 2000) {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(task, { timeout });
    return;
  }
  setTimeout(() => {
    const end = performance.now() + 12;
    task({ timeRemaining: () => Math.max(0, end - performance.now()) });
  }, 50);
}

/** `task` as a function that runs it in the next animation frame, once however often called. */
export function oncePerFrame(task) {
  let frame = 0;
  return () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      task();
    });
  };
}

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

/**
 * The idle time (ms) of a page at rest: between two frames of playback or training an idle
 * moment is under 16 ms, and the browser's longest is 50.
 */
export const REST_IDLE_MS = 30;

/**
 * `task` in an idle moment of the page at rest (REST_IDLE_MS of it), for work whose own
 * style, layout and paint would make a frame of playback or training long: looked for again
 * every 100 ms for as long as the page animates. Where the browser has no idle callbacks
 * (Safari), whenIdle's stand-in moment, which cannot tell rest from animation.
 */
export function whenAtRest(task) {
  if (typeof requestIdleCallback !== 'function') {
    whenIdle(task);
    return;
  }
  const look = () =>
    whenIdle((deadline) => {
      if (deadline.timeRemaining() >= REST_IDLE_MS) task(deadline);
      else setTimeout(look, 100);
    });
  look();
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

// Work that can wait for an idle moment of the page (requestIdleCallback where the browser has
// it; Safari does not, so a short timeout with a deadline of a few milliseconds stands in).

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

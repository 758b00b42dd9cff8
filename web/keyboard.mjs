// Page-wide keys: Space play/pause, ← → previous/next step, Home/End first/last step.
// Space is play/pause even on a focused control of the walkthrough (transport, stage list;
// Enter still presses it), but a button of the figure itself (Train, Shuffle, Take 10 more
// steps) gets its Space, as any button does: a learner who tabs to Train and presses Space
// means to train. Keys typed into a field stay with the field; a focused matrix grid keeps its
// arrow keys (it stops them before they get here). On the Speed menu, ↑ ↓ change the speed
// and ← → still move between steps.

function isTyping(target) {
  return (
    target instanceof Element &&
    Boolean(
      target.closest(
        'input:not([type="range"]), textarea, select, [contenteditable=""], [contenteditable="true"]',
      ),
    )
  );
}

const isSpeedMenu = (target) => target instanceof Element && target.matches('select.speed');

// A button (or link) drawn by the scene on screen, inside the scene host.
const isFigureButton = (target) =>
  target instanceof Element &&
  Boolean(target.closest('.scene-host')) &&
  Boolean(target.closest('button, a[href], summary, [role="button"]'));

/**
 * @param timeline the app's Timeline
 * @param {HTMLElement} root the app's element: keys aimed at another explainer on the same
 *   page (focus inside it) are left to that one
 * @param {{ global?: boolean }} options global: the page's explainer also takes keys typed
 *   with nothing focused; an embedded one (false) only keys typed inside it
 */
export function installKeyboard(timeline, root, { global = true } = {}) {
  (global ? document : root).addEventListener('keydown', (event) => {
    // Inside a shadow root, the event's target as seen from there (document sees the host).
    const target = event.composedPath()[0] ?? event.target;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const ours =
      !global ||
      !(target instanceof Element) ||
      root.contains(target) ||
      target === document.body ||
      target === document.documentElement ||
      !target.closest('[data-explainer]');
    if (!ours) return;
    const steppingFromSpeed = isSpeedMenu(target) && /^Arrow(Left|Right)$/.test(event.key);
    if (isTyping(target) && !steppingFromSpeed) return;
    if (event.key === ' ' && isFigureButton(target)) return; // the button's own press
    switch (event.key) {
      case ' ':
        timeline.toggle();
        break;
      case 'ArrowRight':
        timeline.next();
        break;
      case 'ArrowLeft':
        timeline.previous();
        break;
      case 'Home':
        timeline.goTo(0, { animate: false });
        break;
      case 'End':
        timeline.goTo(timeline.length - 1, { animate: false });
        break;
      default:
        return;
    }
    event.preventDefault();
  });
}

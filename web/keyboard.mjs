// Page-wide keys: Space play/pause, ← → previous/next step, Home/End first/last step.
// Space on a focused button (or link, checkbox, radio button, <summary>) presses it, as it
// does anywhere else: a learner who tabs to Train, to "Take 10 more steps", to Predict or to
// a stage in the list and presses Space means that button, in every chapter. With nothing
// such focused, Space plays or pauses. Keys typed into a field stay with the field; a focused
// matrix grid keeps its arrow keys (it stops them before they get here). On the Speed menu,
// ↑ ↓ change the speed and ← → still move between steps.

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

// A control that Space presses: the browser's own press, not play/pause.
const pressedBySpace = (target) =>
  target instanceof Element &&
  Boolean(
    target.closest(
      'button, a[href], summary, [role="button"], [role="link"], [role="checkbox"], [role="radio"], [role="switch"], input[type="checkbox"], input[type="radio"]',
    ),
  );

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
    if (event.key === ' ' && pressedBySpace(target)) return; // the control's own press
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

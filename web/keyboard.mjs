// Page-wide keys: Space play/pause, ← → previous/next step, Home/End first/last step.
// Keys typed into a field stay with the field; a focused matrix grid keeps its arrow keys
// (it stops them before they get here); a focused button keeps Space (it presses it).

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

export function installKeyboard(timeline) {
  document.addEventListener('keydown', (event) => {
    if (
      event.defaultPrevented ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey ||
      isTyping(event.target)
    )
      return;
    const onButton =
      event.target instanceof Element && event.target.closest('button, summary, a[href]');
    switch (event.key) {
      case ' ':
        if (onButton) return;
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

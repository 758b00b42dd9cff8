// Where a pop-up beside a term or a cell goes: centred under it, or over it when there is no
// room below, and never over the controls. On a phone (and a short laptop screen) the control
// bar (.transport) sticks to the bottom of the screen: a pop-up that reached under it covered
// Play and Next, so the room below ends where the bar begins.

const MARGIN = 8;

/** The lowest y (viewport px) a pop-up below `anchor` may reach: the bar's top if it is below. */
function roomBottom(anchor, anchorBox) {
  const bottom = window.innerHeight;
  const bar = anchor.getRootNode().querySelector?.('.transport');
  if (!bar) return bottom;
  const box = bar.getBoundingClientRect();
  const belowAnchor = box.top >= anchorBox.bottom && box.top < bottom && box.height > 0;
  return belowAnchor ? box.top : bottom;
}

/**
 * Puts `popup` (position: fixed, rendered: its size is measured) beside `anchor`: under it,
 * else over it, else (no room either way) at the top of the screen; across, centred on it
 * within the screen. With `around` (an element holding the anchor: its sentence's paragraph),
 * it goes under or over that instead, so that it covers none of it.
 */
export function placeBeside(popup, anchor, around = anchor) {
  const box = anchor.getBoundingClientRect();
  const block = around.getBoundingClientRect();
  const width = popup.offsetWidth;
  const height = popup.offsetHeight;
  const centred = box.left + box.width / 2 - width / 2;
  const left = Math.max(MARGIN, Math.min(centred, window.innerWidth - width - MARGIN));
  let top = block.bottom + MARGIN;
  if (top + height > roomBottom(anchor, block) - MARGIN) top = block.top - height - MARGIN;
  popup.style.left = `${Math.round(left)}px`;
  popup.style.top = `${Math.round(Math.max(MARGIN, top))}px`;
}

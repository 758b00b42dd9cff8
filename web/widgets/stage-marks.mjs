// The stage marks under the timeline: one button per stage where its first step lies on the
// scrubber, showing the stage's number circled (so it is not read as a step number); a click
// or a tap goes to that stage. Each mark is a target of MARK_SIZE px, the least a finger (and
// WCAG 2.5.8) needs. Stages of one or two steps follow each other closer than that (⑨⑩⑪ on a
// phone's timeline of about 270 px are 5 px apart), so marks take two rows and, where both
// rows are full, stand as near their place as room allows (placeMarks). The marks are placed
// in pixels, from the strip's width as a ResizeObserver reports it (after layout: a frame
// never reads layout). Keyboard and screen reader users have the stage list: the marks are
// buttons out of the Tab order.
import { h, setStyle } from '../dom.mjs';

export const MARK_SIZE = 24;
export const MARK_ROWS = 2;

/**
 * Where each mark stands: its centre x (px, in the strip) and its row. A mark takes the first
 * row with room at its own place; with none, the row that ends first, just after that row's
 * last mark. Then each row is pushed back from the strip's right end. No two marks of a row
 * are closer than `size` while the strip holds them (rows × width / size marks), and each
 * mark stands at least `size / rows` after the one before it, of either row (less where the
 * strip is too short): the marks read left to right in order, and the knob has a section
 * between each mark and the next (timeline.mjs knobPosition). A phone's marks stood in pairs,
 * one above the other: its knob could not say which of the two stages it was in.
 * @param places each stage's place on the strip, px from its left end, in order
 * @param width the strip's width, px
 * @returns {{ x: number, row: number }[]}
 */
export function placeMarks(places, width, { size = MARK_SIZE, rows = MARK_ROWS } = {}) {
  const half = size / 2;
  const apart = Math.min(size / rows, (width - half) / Math.max(1, places.length - 1));
  const ends = Array(rows).fill(-Infinity); // each row's last centre
  // A strip too short for the marks in one row takes them in turn, row by row: the rows are
  // then as full as each other (taken as room allows, the first row could take one too many).
  const crowded = places.length * size > width;
  let previous = -Infinity;
  const marks = places.map((place, k) => {
    const at = Math.max(half, place, previous + apart);
    let row = crowded ? k % rows : ends.findIndex((end) => at - end >= size);
    if (row < 0) row = ends.indexOf(Math.min(...ends));
    const x = Math.max(at, ends[row] + size);
    ends[row] = x;
    previous = x;
    return { x, row };
  });
  // Pushed back from the strip's right end: the last mark at most at its end (the knob's
  // reach), each mark before the next of its row by `size` and before the next by `apart`.
  const limits = Array(rows).fill(width);
  let next = Infinity;
  for (let k = marks.length - 1; k >= 0; k--) {
    const mark = marks[k];
    mark.x = Math.max(half, Math.min(mark.x, limits[mark.row], next - apart));
    limits[mark.row] = mark.x - size;
    next = mark.x;
  }
  return marks;
}

/**
 * @param timeline the one clock (goTo(index) on a click)
 * @param onPlaced called when the marks moved (the knob follows them: rings())
 * @returns {{ element: HTMLElement, update(steps, tr, stageTitle): void,
 *   markStage(stage: number): void, rings(): { at: number[], gap: number } | undefined }}
 */
export function createStageMarks({ timeline, onPlaced = () => {} }) {
  const element = h('div', { class: 'scrubber-ticks', role: 'group' });
  let starts = []; // each stage's first step: { index, at (share of the timeline), button }
  let width = 0;
  let current = null; // the stage shown, its mark filled
  // Where the marks stand, as shares of the strip (the knob's travel: layout.css insets the
  // strip by half the knob at each end), and the knob's gap before a mark (timeline.mjs).
  let rings;

  /** Fills the mark of the stage shown (a class moved at a stage change only). */
  function markStage(stage) {
    if (stage === current) return;
    current = stage;
    for (const { button } of starts)
      button.classList.toggle('is-current', button.dataset.stage === String(stage));
  }

  function place() {
    if (!width || !starts.length) return;
    const marks = placeMarks(
      starts.map(({ at }) => at * width),
      width,
    );
    marks.forEach(({ x, row }, k) => {
      setStyle(starts[k].button, 'left', `${x}px`);
      setStyle(starts[k].button, 'top', `${row * MARK_SIZE}px`);
    });
    element.classList.toggle(
      'has-two-rows',
      marks.some(({ row }) => row > 0),
    );
    rings = { at: marks.map(({ x }) => x / width), gap: MARK_SIZE / width };
    onPlaced();
  }

  if (typeof ResizeObserver === 'function')
    new ResizeObserver(([entry]) => {
      width = entry.contentRect.width;
      place();
    }).observe(element);

  function update(steps, tr, stageTitle) {
    element.setAttribute('aria-label', tr('stages.label'));
    starts = steps
      .map((step, index) => ({ step, index, at: index / steps.length }))
      .filter(({ step }, k) => k === 0 || steps[k - 1].stage !== step.stage)
      .map(({ step, index, at }) => {
        const name = tr('stage.named', { stage: step.stage, name: stageTitle(step.stage) });
        const button = h(
          'button',
          {
            type: 'button',
            class: 'tick',
            tabindex: '-1',
            dataset: { stage: String(step.stage) },
            title: name,
            'aria-label': name,
            // Before the strip is measured: at its place, on the first row.
            style: { left: `${at * 100}%`, top: '0px' },
            onclick: () => timeline.goTo(index),
          },
          // The stage's number in a drawn circle (so it is not read as a step number), its
          // digits 11 px: Unicode's circled numbers (①) drew them about 8 px high.
          h('span', { class: 'tick-number', text: String(step.stage) }),
        );
        return { index, at, button };
      });
    element.replaceChildren(...starts.map(({ button }) => button));
    rings = undefined;
    const shown = current;
    current = null;
    if (shown !== null) markStage(shown);
    place();
  }

  return { element, update, markStage, rings: () => rings };
}

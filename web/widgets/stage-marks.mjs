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
 * are closer than `size` while the strip holds them (rows × width / size marks).
 * @param places each stage's place on the strip, px from its left end, in order
 * @param width the strip's width, px
 * @returns {{ x: number, row: number }[]}
 */
export function placeMarks(places, width, { size = MARK_SIZE, rows = MARK_ROWS } = {}) {
  const half = size / 2;
  const ends = Array(rows).fill(-Infinity); // each row's last centre
  // A strip too short for the marks in one row takes them in turn, row by row: the rows are
  // then as full as each other (taken as room allows, the first row could take one too many).
  const crowded = places.length * size > width;
  const marks = places.map((place, k) => {
    const at = Math.max(half, place);
    let row = crowded ? k % rows : ends.findIndex((end) => at - end >= size);
    if (row < 0) row = ends.indexOf(Math.min(...ends));
    const x = Math.max(at, ends[row] + size);
    ends[row] = x;
    return { x, row };
  });
  for (let row = 0; row < rows; row++) {
    // The last mark may stand half past the strip's right end (the bar has room there): a
    // phone's strip of about 280 px then holds two rows of 12, the 24 stages of 4 chapters.
    let limit = width;
    for (let k = marks.length - 1; k >= 0; k--) {
      if (marks[k].row !== row) continue;
      marks[k].x = Math.max(half, Math.min(marks[k].x, limit));
      limit = marks[k].x - size;
    }
  }
  return marks;
}

/**
 * @param timeline the one clock (goTo(index) on a click)
 * @returns {{ element: HTMLElement, update(steps, tr, stageTitle): void,
 *   markStage(stage: number): void }}
 */
export function createStageMarks({ timeline }) {
  const element = h('div', { class: 'scrubber-ticks', role: 'group' });
  let starts = []; // each stage's first step: { index, at (share of the timeline), button }
  let width = 0;
  let current = null; // the stage shown, its mark filled

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
        const name = `${tr('stage.number', { stage: step.stage })}: ${stageTitle(step.stage)}`;
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
    const shown = current;
    current = null;
    if (shown !== null) markStage(shown);
    place();
  }

  return { element, update, markStage };
}

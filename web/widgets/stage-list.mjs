// The list of the stages to jump to, under their chapter's title (the article, then one real
// layer). The current stage opens to show its steps (e.g. each input's key, value and
// query); the current step is marked aria-current.
import { h } from '../dom.mjs';

/**
 * @param {{ onJump: (index: number) => void, chapters: object[], stages: object[] }} options
 *   chapters and stages as stages/index.mjs lists them (CHAPTERS: { number, titleKey };
 *   STAGES: { number, chapter, titleKey }), given by the app: widgets never import stages
 */
export function createStageList({ onJump, chapters, stages }) {
  const heading = h('h2', { class: 'panel-title', id: 'stages-title' });
  const list = h('ol', { class: 'stage-list' });
  // Phones and narrow windows (layout.css): the list is closed behind a button that names the
  // current stage, and opens as a column of every stage with its name (a row of numbers
  // showed one name and a half).
  const toggleText = h('span', { class: 'stages-toggle-text' });
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'stages-toggle',
      'aria-expanded': 'false',
      onclick: () => setOpen(!element.classList.contains('is-open')),
    },
    toggleText,
    h('span', { class: 'stages-toggle-mark', 'aria-hidden': 'true' }),
  );
  const element = h(
    'nav',
    { class: 'stages', 'aria-labelledby': 'stages-title' },
    heading,
    toggle,
    list,
  );
  function setOpen(open) {
    element.classList.toggle('is-open', open);
    toggle.setAttribute('aria-expanded', String(open));
  }
  // Escape closes the open list, focus back on its button, as a disclosure's menu does.
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !element.classList.contains('is-open')) return;
    event.preventDefault();
    setOpen(false);
    toggle.focus();
  });
  const jump = (index) => {
    setOpen(false);
    onJump(index);
  };

  // The list's size, and its chapters' names (their font, once loaded, or their language);
  // then the rows may have moved since the current items were brought into view.
  const sizes = watchChapterRows(list, () => {
    stageWatch.again();
    stepWatch?.again();
  });
  sizes.observe(list);

  // What the list was last built for: another stage of the same steps only moves the
  // current mark and the one row of steps (the list built anew at every stage change of
  // playback laid out and styled some 250 boxes in that frame: 48 stage numbers and names, 24
  // buttons, 23 items), another step of the same stage only moves aria-current.
  let builtFor = null;
  let items = new Map(); // stage number → its <li>

  function update({ steps, index, tr, dims }) {
    const current = steps[index];
    const focusedTarget = list.contains(document.activeElement)
      ? document.activeElement.dataset.target
      : null;
    const same =
      builtFor && builtFor.steps === steps && builtFor.tr === tr && builtFor.dims === dims;
    if (same && builtFor.stage === current.stage) {
      markCurrent(list, index);
      // Keyboard focus in the list follows the current step, as after a rebuild.
      if (focusedTarget !== null)
        list.querySelector(`.step-button[data-target="${index}"]`)?.focus();
      return;
    }
    toggleText.textContent = tr('stages.toggle', {
      stage: current.stage,
      total: steps[steps.length - 1].stage,
      name: tr(stages.find((s) => s.number === current.stage).titleKey),
    });
    if (same) {
      // Another stage: the old one closes its row of steps, the new one opens its own.
      const before = items.get(builtFor.stage);
      before?.classList.remove('is-current');
      before?.querySelector(':scope > .step-list')?.remove();
      const now = items.get(current.stage);
      now.classList.add('is-current');
      now.append(stepList({ steps, stage: current.stage, index, tr, dims, jump }));
      markCurrent(list, index);
      builtFor.stage = current.stage;
    } else {
      heading.textContent = tr('stages.label');
      const built = stageItems({ stages, chapters, steps, index, tr, dims, jump });
      items = new Map(
        built
          .filter((item) => item.dataset.stage)
          .map((item) => [Number(item.dataset.stage), item]),
      );
      list.replaceChildren(...built);
      for (const title of list.querySelectorAll(':scope > .chapter-title')) sizes.observe(title);
      builtFor = { steps, tr, dims, stage: current.stage };
    }
    if (focusedTarget !== null) {
      // Keep keyboard focus in the list across the change.
      const again =
        list.querySelector(`.step-button[data-target="${index}"]`) ??
        list.querySelector(`[data-target="${focusedTarget}"]`) ??
        list.querySelector(`.stage-item.is-current .stage-button`);
      again?.focus();
    }
  }

  // Two rows scroll sideways, and each brings its current item into view: on phones the list
  // is one row of stages (stage 13 lies beyond the screen's edge); on laptops the current
  // stage's steps are a row of their own (stage 8 has 9), whose current step's chip is centred.
  // Only the rows scroll, never the page. Where an item lies is not read here: a read after
  // the list was rebuilt forces a layout of the whole page in the middle of a frame (10.8 ms,
  // one frame of 33 ms while chapter 1 played). An IntersectionObserver on each row reports
  // the item's box and the row's, as the browser's own layout of the next frame found them;
  // the row is scrolled then, only when the item is not wholly in view.
  // (its right edge at the row's; none where it is in view)
  const revealStage = (at, row) =>
    at.left < row.left || at.right > row.right ? at.right - row.right : 0;
  const stageWatch = watchInRow(list, revealStage);
  let stepWatch = null;

  /** Watches the current stage's button in the list, and its current step's chip in its row. */
  function revealCurrent() {
    // The button: the current item itself may be display: contents (no box).
    stageWatch.watch(list.querySelector('.stage-item.is-current > .stage-button'));
    const row = list.querySelector('.stage-item.is-current > .step-list');
    if (stepWatch?.root !== row) {
      stepWatch?.disconnect();
      stepWatch = row ? watchInRow(row, revealStep) : null;
    }
    if (row) stepWatch.watch(row.querySelector('[aria-current="step"]'));
  }

  return {
    element,
    /** Opens the list (where it is closed) and brings it on screen, its current stage focused. */
    open() {
      setOpen(true);
      element.scrollIntoView({ block: 'start' });
      list.querySelector('.stage-item.is-current > .stage-button')?.focus({ preventScroll: true });
    },
    update(options) {
      update(options);
      revealCurrent();
    },
  };
}

// A short laptop screen's strip (layout.css) wraps its rows wherever a stage number runs out
// of room: a chapter's name could end a row with its stages on the next. Where one would,
// the row breaks before the chapter's name instead (its .chapter-break shown), so that each
// chapter reads as one run, its name first. Measured when the list's size or a chapter
// name's changes (a font loaded, another language), never as a stage changes (the strip's
// rows do not depend on the stage shown).
function keepChaptersWhole(list) {
  const breaks = [...list.querySelectorAll(':scope > .chapter-break')];
  for (const b of breaks) b.classList.remove('is-on');
  const left = list.getBoundingClientRect().left + list.clientLeft;
  const middle = (box) => box.top + box.height / 2;
  for (const b of breaks) {
    const title = b.nextElementSibling;
    const box = title.getBoundingClientRect();
    let last = null;
    for (let item = title.nextElementSibling; item; item = item.nextElementSibling) {
      if (!item.classList.contains('stage-item')) break;
      last = item.querySelector(':scope > .stage-button') ?? last;
    }
    // Rows differ by a button's height; a name and a number of one row, by a few pixels.
    const split = last && Math.abs(middle(last.getBoundingClientRect()) - middle(box)) > 10;
    const rowStart = box.left - left < 8;
    if (split && !rowStart) b.classList.add('is-on');
  }
}

/** Marks aria-current the list's buttons that target step `index`. */
function markCurrent(list, index) {
  // A stage's button targets its first step: it is current on that step, as are the steps'.
  for (const button of list.querySelectorAll('[data-target]')) {
    if (Number(button.dataset.target) === index) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  }
}

/**
 * A ResizeObserver that keeps the chapters whole (keepChaptersWhole) when what it observes
 * changes size, then calls moved(). Measured in a task of its own after the observer's
 * report: the breaks change the list's rows, and changed within the observer's callback they
 * resize what it observes (Firefox and WebKit then report "ResizeObserver loop completed with
 * undelivered notifications"); in an animation frame, the measuring would force its layout.
 */
function watchChapterRows(list, moved) {
  let measuring = 0;
  return new ResizeObserver(() => {
    clearTimeout(measuring);
    measuring = setTimeout(() => {
      keepChaptersWhole(list);
      moved();
    });
  });
}

// The current step centred, then moved so that no step is cut by the row's left edge: the
// one the centring would cut is shown whole, or (when the current one would no longer fit)
// scrolled past, the next one starting at the edge; near the row's end, room is made after
// its last step for that (its end padding). The buttons' boxes are read here, in the
// observer's report, after the frame's layout.
function revealStep(at, row, root) {
  const max = root.scrollWidth - root.clientWidth;
  // In view, it stays (only a step cut at the left edge is shown whole: the bold current step
  // is wider than it was, the one before narrower, and a row scrolled to its end moves).
  const inView = at.left >= row.left && at.right <= row.right;
  const centred = inView ? 0 : at.left - row.left - (row.width - at.width) / 2;
  let shift = Math.min(max - root.scrollLeft, Math.max(-root.scrollLeft, centred));
  const boxes = [...root.querySelectorAll('.step-button')].map((b) => b.getBoundingClientRect());
  const cut = boxes.findIndex(
    (b) => b.left - shift < row.left - 0.5 && b.right - shift > row.left + 0.5,
  );
  if (cut !== -1) {
    const whole = boxes[cut].left - row.left;
    shift = at.right - whole <= row.right + 0.5 ? whole : (boxes[cut + 1] ?? at).left - row.left;
  }
  // (more than the room already made, which `max` counts)
  const room = Math.ceil(root.scrollLeft + shift - max);
  const made = parseFloat(root.style.getPropertyValue('--end-room')) || 0;
  if (room > 0) root.style.setProperty('--end-room', `${made + room}px`);
  return shift;
}

/**
 * The list's items: each chapter's title before its first stage, each stage's button (to its
 * first step), and under the current stage the buttons of its steps.
 */
function stageItems({ stages, chapters, steps, index, tr, dims, jump }) {
  const current = steps[index];
  return stages.flatMap(({ number: stage, chapter }, k) => {
    const first = steps.findIndex((step) => step.stage === stage);
    if (first === -1) return [];
    const opensChapter = k === 0 || stages[k - 1].chapter !== chapter;
    const chapterTitle = opensChapter
      ? h('li', {
          class: 'chapter-title',
          dataset: { chapter },
          text: tr(chapters.find((c) => c.number === chapter).titleKey),
        })
      : null;
    // Where the strip breaks its row before the chapter, when it must (keepChaptersWhole).
    const chapterBreak =
      opensChapter && k > 0 ? h('li', { class: 'chapter-break', 'aria-hidden': 'true' }) : null;
    const isCurrent = current.stage === stage;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'stage-button',
        dataset: { target: first, stage },
        'aria-current': isCurrent && first === index ? 'step' : null,
        onclick: () => jump(first),
      },
      h('span', { class: 'stage-number', text: String(stage) }),
      h('span', { class: 'stage-name', text: tr(stages[k].titleKey) }),
    );
    const sublist = isCurrent ? stepList({ steps, stage, index, tr, dims, jump }) : null;
    const item = h(
      'li',
      { class: `stage-item${isCurrent ? ' is-current' : ''}`, dataset: { stage } },
      button,
      sublist,
    );
    return [chapterBreak, chapterTitle, item].filter(Boolean);
  });
}

/**
 * The buttons of a stage's steps (the current stage's, under its button). A stage of one step
 * has its list too, marked is-single: the stage strip of laptop screens shows it, so that the
 * strip keeps its height from stage to stage and the controls under it stay put (layout.css);
 * the list of wide screens hides it (controls.css).
 */
function stepList({ steps, stage, index, tr, dims, jump }) {
  const children = steps.map((step, k) => ({ step, k })).filter(({ step }) => step.stage === stage);
  const row = h(
    'ol',
    { class: `step-list${children.length === 1 ? ' is-single' : ''}` },
    children.map(({ step, k }) =>
      h(
        'li',
        {},
        h('button', {
          type: 'button',
          class: 'step-button',
          dataset: { target: k },
          'aria-current': k === index ? 'step' : null,
          text: step.title(tr, dims),
          onclick: () => jump(k),
        }),
      ),
    ),
  );
  if (children.length > 1) showHiddenSteps(row, tr);
  return row;
}

/**
 * Where the row of steps scrolls (a laptop's strip, layout.css), a button at each edge it
 * continues past says how many steps lie beyond ("3 ›"), and a click or Enter scrolls them
 * into view: the edges' fade alone did not say the row scrolls. Each button stands in a
 * zero-width item that sticks to its edge (no step moves when it shows), and shows only while
 * steps lie beyond that edge: an IntersectionObserver reports which steps are not wholly in
 * the row, from the browser's own layout (nothing is measured in a frame).
 */
function showHiddenSteps(row, tr) {
  const edge = (side, label, text, direction) => {
    const button = h('button', {
      type: 'button',
      class: 'step-more',
      hidden: true,
      onclick: () => row.scrollBy({ left: scrollPast(row, button, direction) }),
    });
    const update = (n) => {
      const hide = n === 0;
      if (hide && button === document.activeElement) {
        // Its steps all in view: focus moves on to the step at that edge, not to the page.
        const buttons = row.querySelectorAll('.step-button');
        buttons[direction > 0 ? buttons.length - 1 : 0]?.focus({ preventScroll: true });
      }
      button.hidden = hide;
      if (hide) return;
      button.textContent = text(n);
      button.setAttribute('aria-label', tr(label, { n }));
      button.title = tr(label, { n });
    };
    return { item: h('li', { class: `step-more-edge is-${side}`, role: 'none' }, button), update };
  };
  const before = edge('before', 'stages.stepsBefore', (n) => `‹ ${n}`, -1);
  const after = edge('after', 'stages.stepsAfter', (n) => `${n} ›`, 1);
  row.prepend(before.item);
  row.append(after.item);
  const beyond = new Map(); // step button → -1 (before the row's view), 1 (after) or 0
  const observer = new IntersectionObserver(
    (entries) => {
      for (const { target, intersectionRatio, boundingClientRect: at, rootBounds: view } of entries)
        beyond.set(
          target,
          !view?.width || intersectionRatio >= 0.99 ? 0 : at.left < view.left ? -1 : 1,
        );
      const count = (side) => [...beyond.values()].filter((v) => v === side).length;
      before.update(count(-1));
      after.update(count(1));
    },
    { root: row, threshold: [0, 0.99] },
  );
  const steps = row.querySelectorAll('.step-button');
  for (const button of steps) observer.observe(button);
  // A step that crossed the whole view between two of the observer's samples (a smooth
  // scroll of a narrow row) kept its side: '1 ›' stayed at the row's end, its click doing
  // nothing. Once the row stops scrolling, each step is reported afresh.
  let settling = 0;
  row.addEventListener(
    'scroll',
    () => {
      clearTimeout(settling);
      settling = setTimeout(() => {
        for (const button of steps) {
          observer.unobserve(button);
          observer.observe(button);
        }
      }, 120);
    },
    { passive: true },
  );
}

/**
 * How far a click on the button at one edge scrolls the row (read on a click, not in a frame):
 * the first step beyond it then starts just clear of the button at the other edge (a shown
 * button covers the row's first pixels), or, where that is no move (a step wider than the
 * row), the step's hidden end comes in. At least a pixel: a click always moves.
 */
function scrollPast(row, button, direction) {
  const view = row.getBoundingClientRect();
  const clear = button.getBoundingClientRect().width + 4;
  const boxes = [...row.querySelectorAll('.step-button')].map((b) => b.getBoundingClientRect());
  if (direction > 0) {
    const next = boxes.find((b) => b.right > view.right + 0.5);
    if (!next) return 1;
    const start = next.left - view.left - clear;
    return Math.max(1, start > 1 ? start : next.right - view.right);
  }
  const next = boxes.findLast((b) => b.left < view.left - 0.5);
  if (!next) return -1;
  const end = next.right - view.right + clear;
  return Math.min(-1, end < -1 ? end : next.left - view.left);
}

/**
 * An IntersectionObserver whose root is the scrolling `root`: watch(target) replaces the
 * element watched (null: none). At its first report after each watch() (the browser reports
 * every new target once, after its next layout), once the root has a box (a closed list has
 * none), the root is scrolled by shift(target's box, root's box, root) pixels (none: 0).
 */
function watchInRow(root, shift) {
  let watched = null;
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries.findLast((e) => e.target === watched);
      const { boundingClientRect: at, rootBounds: row } = entry ?? {};
      if (!(row?.width > 0 && at.width > 0)) return;
      observer.unobserve(watched); // once per watch(): the reader may scroll it away after
      const by = shift(at, row, root);
      if (Math.abs(by) >= 0.5) root.scrollBy({ left: by });
    },
    { root },
  );
  return {
    root,
    watch(target) {
      if (target === watched) return;
      if (watched) observer.unobserve(watched);
      watched = target;
      if (target) observer.observe(target);
    },
    /** Reports the watched target once more (its row moved). */
    again() {
      if (!watched) return;
      observer.unobserve(watched);
      observer.observe(watched);
    },
    disconnect: () => observer.disconnect(),
  };
}

// The list of the stages to jump to, under their chapter's title (the article, then one real
// layer). The current stage opens to show its steps (e.g. each input's key, value and
// query); the current step is marked aria-current.
import { h } from '../dom.mjs';
import { oncePerFrame } from '../idle.mjs';

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
  const jump = (index) => {
    setOpen(false);
    onJump(index);
  };

  // What the list was last built for: moving to another step of the same stage only moves
  // aria-current (playback changes step every few seconds; the list need not be rebuilt).
  let builtFor = null;

  function update({ steps, index, tr, dims }) {
    const current = steps[index];
    if (
      builtFor &&
      builtFor.steps === steps &&
      builtFor.tr === tr &&
      builtFor.dims === dims &&
      builtFor.stage === current.stage
    ) {
      // A stage's button targets its first step: it is current on that step, as are the steps'.
      for (const button of list.querySelectorAll('[data-target]')) {
        if (Number(button.dataset.target) === index) button.setAttribute('aria-current', 'step');
        else button.removeAttribute('aria-current');
      }
      // Keyboard focus in the list follows the current step, as after a rebuild.
      if (list.contains(document.activeElement))
        list.querySelector(`.step-button[data-target="${index}"]`)?.focus();
      return;
    }
    scrollToCurrent = true;
    builtFor = { steps, tr, dims, stage: current.stage };
    const focusedTarget = list.contains(document.activeElement)
      ? document.activeElement.dataset.target
      : null;
    heading.textContent = tr('stages.label');
    toggleText.textContent = tr('stages.toggle', {
      stage: current.stage,
      total: steps[steps.length - 1].stage,
      name: tr(stages.find((s) => s.number === current.stage).titleKey),
    });
    const items = stages.flatMap(({ number: stage, chapter }, k) => {
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
      const children = steps
        .map((step, k) => ({ step, k }))
        .filter(({ step }) => step.stage === stage);
      const sublist =
        isCurrent && children.length > 1
          ? h(
              'ol',
              { class: 'step-list' },
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
            )
          : null;
      const item = h(
        'li',
        { class: `stage-item${isCurrent ? ' is-current' : ''}`, dataset: { stage } },
        button,
        sublist,
      );
      return chapterTitle ? [chapterTitle, item] : [item];
    });
    list.replaceChildren(...items);
    if (focusedTarget !== null) {
      // Keep keyboard focus in the list across the re-render.
      const again =
        list.querySelector(`.step-button[data-target="${index}"]`) ??
        list.querySelector(`[data-target="${focusedTarget}"]`) ??
        list.querySelector(`.stage-item.is-current .stage-button`);
      again?.focus();
    }
  }

  // On phones the list is one scrolling row: a new stage is brought into it (stage 13 lies
  // beyond the screen's edge). Only the row scrolls, never the page.
  let scrollToCurrent = false;
  function revealCurrent() {
    if (!scrollToCurrent) return;
    scrollToCurrent = false;
    if (list.scrollWidth <= list.clientWidth) return;
    // The button: the current item itself may be display: contents (no box).
    const current = list.querySelector('.stage-item.is-current > .stage-button');
    if (!current) return;
    const left = current.offsetLeft;
    const right = left + current.offsetWidth;
    if (left < list.scrollLeft || right > list.scrollLeft + list.clientWidth)
      list.scrollLeft = Math.max(0, right - list.clientWidth);
  }

  // On laptops the current stage's steps are a row of their own that scrolls sideways
  // (stage 8 has 9): the current step's chip is brought into it, centred; only the row
  // scrolls.
  function revealCurrentStep() {
    const row = list.querySelector('.stage-item.is-current > .step-list');
    const chip = row?.querySelector('[aria-current="step"]');
    if (!chip || row.scrollWidth <= row.clientWidth) return;
    const box = row.getBoundingClientRect();
    const at = chip.getBoundingClientRect();
    if (at.left >= box.left && at.right <= box.right) return;
    row.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
  }

  // Both read the layout: done in the next frame, which lays the page out anyway, and not
  // here, where the reads would force a layout of the whole page in the middle of the update
  // (as the page opens, that layout alone is about a fifth of the time to ready).
  const revealLater = oncePerFrame(() => {
    revealCurrent();
    revealCurrentStep();
  });

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
      revealLater();
    },
  };
}

// Playback controls: restart, previous, play/pause, next, a scrubber over the whole
// timeline (its steps), with a marker where each stage starts (circled stage numbers under a
// "Stages" legend, so they are not read as step numbers), the step counter, the stage counter
// and the speed.
import { h, setText } from '../dom.mjs';
import { icon } from './icons.mjs';

export const SPEEDS = [0.5, 1, 1.5, 2, 4];
/** How close (a share of the timeline) two ticks of one row may stand, and the rows' classes. */
const TICK_GAP = 0.05;
const TICK_ROWS = ['tick', 'tick is-low', 'tick is-lower'];

/**
 * Stage numbers as circled digits, visibly not the step numbers of the scrubber: ① … ⑳ and
 * ㉑ … ㉟ (Unicode has no circled numbers beyond 35).
 */
const circled = (n) =>
  n >= 1 && n <= 20
    ? String.fromCodePoint(0x245f + n)
    : n <= 35
      ? String.fromCodePoint(0x3250 + n - 20)
      : String(n);

export function createTransport({ timeline, onStages = () => {} }) {
  const button = (name, action) => {
    const label = h('span', { class: 'button-label' });
    const element = h(
      'button',
      {
        type: 'button',
        class: `transport-button is-${name}`,
        dataset: { action: name },
        onclick: action,
      },
      icon(name),
      label,
    );
    return { element, label };
  };
  const restart = button('restart', () => timeline.goTo(0));
  const previous = button('previous', () => timeline.previous());
  const play = button('play', () => timeline.toggle());
  const next = button('next', () => timeline.next());
  const scrubber = h('input', {
    type: 'range',
    class: 'scrubber',
    min: '0',
    max: '1000',
    step: '1',
    value: '0',
  });
  scrubber.addEventListener('input', () =>
    timeline.scrubTo((Number(scrubber.value) / 1000) * timeline.length),
  );
  const ticks = h('div', { class: 'scrubber-ticks', 'aria-hidden': 'true' });
  // The legend is a button to the stage list: on a phone it spans the whole strip of
  // markers, a tap target of 24 px (the markers themselves stand closer than that).
  const ticksLegend = h('button', { type: 'button', class: 'ticks-legend', onclick: onStages });
  const stageCounter = h('span', { class: 'stage-counter' });
  const counter = h('output', { class: 'step-counter' });
  const speedLabel = h('span', { class: 'speed-label' });
  const speed = h(
    'select',
    { class: 'speed', onchange: () => timeline.setSpeed(Number(speed.value)) },
    SPEEDS.map((value) =>
      h('option', { value: String(value), selected: value === 1, text: `${value}×` }),
    ),
  );
  const element = h(
    'div',
    { class: 'transport', role: 'group' },
    h(
      'div',
      { class: 'transport-row' },
      h(
        'div',
        { class: 'transport-buttons' },
        restart.element,
        previous.element,
        play.element,
        next.element,
      ),
      h(
        'div',
        { class: 'transport-status' },
        counter,
        stageCounter,
        h('label', { class: 'speed-field' }, speedLabel, speed),
      ),
    ),
    h('div', { class: 'scrubber-wrap' }, ticksLegend, scrubber, ticks),
  );

  let ticksFor = null;
  let shownPlaying = false; // the play button starts with the play icon
  function update({ tr, steps, title, stageTitle }) {
    element.setAttribute('aria-label', tr('transport.label'));
    setText(restart.label, tr('transport.restart'));
    setText(previous.label, tr('transport.previous'));
    setText(next.label, tr('transport.next'));
    const playing = timeline.playing;
    setText(play.label, tr(playing ? 'transport.pause' : 'transport.play'));
    if (playing !== shownPlaying) {
      shownPlaying = playing;
      play.element.replaceChild(
        icon(playing ? 'pause' : 'play'),
        play.element.querySelector('svg'),
      );
    }
    play.element.setAttribute('aria-pressed', String(playing));
    play.element.classList.toggle('is-playing', playing);
    previous.element.disabled = timeline.index === 0;
    next.element.disabled = timeline.index === steps.length - 1 && timeline.t >= 1;
    scrubber.setAttribute('aria-label', tr('transport.timeline'));
    const position = tr('transport.position', { k: timeline.index + 1, total: steps.length });
    scrubber.setAttribute('aria-valuetext', `${position}: ${title}`);
    setText(counter, position);
    const stage = steps[timeline.index].stage;
    const stageCount = steps[steps.length - 1].stage;
    setText(stageCounter, tr('transport.stage', { stage, total: stageCount }));
    setText(ticksLegend, tr('transport.ticks'));
    ticksLegend.setAttribute('aria-label', tr('transport.ticksOpen'));
    setText(speedLabel, tr('transport.speed'));
    if (ticksFor?.steps !== steps || ticksFor.tr !== tr) {
      ticksFor = { steps, tr };
      const starts = steps
        .map((step, k) => ({ step, at: k / steps.length }))
        .filter(({ step }, k) => k === 0 || steps[k - 1].stage !== step.stage);
      // A stage of one or two steps puts its tick next to the one before (⑨⑩⑪, ⑫⑬): on a
      // phone (a timeline of about 300 px, a tick about 14 px wide) they would overlap, so
      // each tick takes the first of three rows whose last tick is far enough behind it.
      const rowEnds = [];
      const rows = starts.map(({ at }) => {
        const free = rowEnds.findIndex((end) => at - end >= TICK_GAP);
        const row = free >= 0 ? free : Math.min(rowEnds.length, TICK_ROWS.length - 1);
        rowEnds[row] = at;
        return row;
      });
      ticks.classList.toggle('has-two-rows', rowEnds.length === 2);
      ticks.classList.toggle('has-three-rows', rowEnds.length > 2);
      ticks.replaceChildren(
        ...starts.map(({ step, at }, k) =>
          h('span', {
            class: TICK_ROWS[rows[k]],
            style: { left: `${at * 100}%` },
            title: `${tr('stage.number', { stage: step.stage })}: ${stageTitle(step.stage)}`,
            text: circled(step.stage),
          }),
        ),
      );
    }
    syncPosition();
  }

  /** Cheap per-frame update: only the scrubber's position. */
  function syncPosition() {
    if (document.activeElement === scrubber && scrubber.matches(':active')) return; // being dragged
    const value = String(Math.round((timeline.position / timeline.length) * 1000));
    if (scrubber.value !== value) scrubber.value = value; // moves every few frames only
  }

  return { element, update, syncPosition, scrubber, playButton: play.element };
}

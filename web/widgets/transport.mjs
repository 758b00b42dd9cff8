// Playback controls: restart, previous, play/pause, next, a scrubber over the whole
// timeline (its steps), with a mark where each stage starts (stage-marks.mjs, beside a "Stages"
// legend that opens the stage list), the step counter, the stage counter and the speed.
import { h, setText } from '../dom.mjs';
import { icon } from './icons.mjs';
import { createStageMarks } from './stage-marks.mjs';
import { knobPosition, stepAtKnob } from '../timeline.mjs';

export const SPEEDS = [0.5, 1, 1.5, 2, 4];

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
  // The knob's coordinate is not the clock's: the knob of a step of stage k stands between the
  // marks of stages k and k + 1, wherever they stand (timeline.mjs knobPosition).
  const knobAt = (value) => stepAtKnob(timeline.steps, Number(value) / 1000, marks.rings());
  scrubber.addEventListener('input', () => {
    const { index, t } = knobAt(scrubber.value);
    timeline.scrubToStep(index, t);
  });
  const marks = createStageMarks({ timeline, onPlaced: () => syncPosition() });
  // The marks' legend, "Stages", is a button to the stage list.
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
    h('div', { class: 'scrubber-wrap' }, ticksLegend, scrubber, marks.element),
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
      marks.update(steps, tr, stageTitle);
    }
    marks.markStage(stage);
    syncPosition();
  }

  /** Cheap per-frame update: only the scrubber's position. */
  function syncPosition() {
    if (document.activeElement === scrubber && scrubber.matches(':active')) return; // being dragged
    // A value in the gap before a mark that already reads as the step shown stays (an arrow
    // key moves the knob through the gap, rather than being put back each time).
    const shown = knobAt(scrubber.value);
    if (shown.index === timeline.index && shown.t === timeline.t) return;
    const { steps, index, t } = timeline;
    const value = String(Math.round(knobPosition(steps, index, t, marks.rings()) * 1000));
    if (scrubber.value !== value) scrubber.value = value; // moves every few frames only
  }

  return { element, update, syncPosition, scrubber, playButton: play.element };
}

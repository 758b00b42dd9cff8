// The one clock every scene is drawn from. The position is (step index, t) with t in [0, 1];
// playing advances t, stepping and scrubbing set it, and the app then calls the current
// scene's render(t). Reduced motion is the same clock with t jumping straight to 1: the
// scenes draw the same final pictures, only the in-between frames are skipped.

export class Timeline {
  /**
   * @param {object} hooks
   * @param {(change: { stepChanged: boolean, reason: string }) => void} hooks.onChange
   *   called after every change of position or play state
   * @param {(callback: FrameRequestCallback) => number} [hooks.requestFrame]
   */
  constructor({ onChange, requestFrame = (cb) => requestAnimationFrame(cb) }) {
    this.onChange = onChange;
    this.requestFrame = requestFrame;
    this.steps = [];
    this.index = 0;
    this.t = 1;
    /** false, 'all' (play through to the end) or 'one' (animate the current step, then stop) */
    this.mode = false;
    this.speed = 1;
    this.reducedMotion = false;
    this.lastTime = null;
    this.dwell = 0;
    this.frameId = 0;
  }

  get playing() {
    return this.mode === 'all';
  }

  get animating() {
    return this.mode !== false;
  }

  /** The scrubber's coordinate: step index plus t, from 0 to steps.length. */
  get position() {
    return this.index + this.t;
  }

  get length() {
    return this.steps.length;
  }

  setSteps(steps, index = this.index, t = this.t) {
    this.steps = steps;
    this.index = Math.min(Math.max(0, index), steps.length - 1);
    this.t = t;
  }

  /** Shows a step: animated from t = 0 unless motion is reduced or `animate` is false. */
  goTo(index, { animate = true, reason = 'step' } = {}) {
    const target = Math.min(Math.max(0, index), this.steps.length - 1);
    const stepChanged = target !== this.index;
    this.index = target;
    if (animate && !this.reducedMotion) {
      this.t = 0;
      this.start('one');
    } else {
      this.t = 1;
      this.stop();
    }
    this.onChange({ stepChanged, reason });
  }

  next() {
    if (this.index < this.steps.length - 1) this.goTo(this.index + 1);
    else this.goTo(this.index, { animate: false });
  }

  previous() {
    this.goTo(this.index - 1, { animate: false });
  }

  /** Scrubbing: any position on the whole timeline; stops playback. */
  scrubTo(position) {
    const clamped = Math.min(Math.max(0, position), this.steps.length);
    const index = Math.min(Math.floor(clamped), this.steps.length - 1);
    this.scrubToStep(index, Math.min(1, clamped - index));
  }

  /** Scrubbing to step `index` at `t` (t = 1: the step finished); stops playback. */
  scrubToStep(index, t) {
    const stepChanged = index !== this.index;
    this.index = index;
    this.t = t;
    this.stop();
    this.onChange({ stepChanged, reason: 'scrub' });
  }

  play() {
    const atEnd = this.index === this.steps.length - 1 && this.t >= 1;
    let stepChanged = false;
    if (atEnd) {
      stepChanged = this.index !== 0;
      this.index = 0;
      this.t = this.reducedMotion ? 1 : 0;
    } else if (this.t >= 1 && !this.reducedMotion) {
      // A finished step: carry on with the next one rather than replaying it.
      this.index += 1;
      this.t = 0;
      stepChanged = true;
    }
    this.start('all');
    this.onChange({ stepChanged, reason: 'play' });
  }

  pause() {
    this.stop();
    this.onChange({ stepChanged: false, reason: 'pause' });
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed) {
    this.speed = speed;
  }

  setReducedMotion(reduced) {
    this.reducedMotion = reduced;
    if (reduced && this.mode === 'one') {
      this.t = 1;
      this.stop();
      this.onChange({ stepChanged: false, reason: 'motion' });
    }
  }

  start(mode) {
    this.mode = mode;
    this.lastTime = null;
    this.dwell = 0;
    if (!this.frameId) this.frameId = this.requestFrame((time) => this.tick(time));
  }

  stop() {
    this.mode = false;
    this.lastTime = null;
  }

  tick(time) {
    this.frameId = 0;
    if (!this.mode) return;
    const seconds = this.lastTime === null ? 0 : ((time - this.lastTime) / 1000) * this.speed;
    this.lastTime = time;
    const duration = this.steps[this.index].duration;
    let stepChanged = false;
    if (this.reducedMotion) {
      // No in-between frames: each step is shown finished for as long as it would animate.
      this.dwell += seconds;
      if (this.mode === 'one') this.stop();
      else if (this.dwell >= duration) {
        this.dwell = 0;
        if (this.index < this.steps.length - 1) {
          this.index += 1;
          stepChanged = true;
        } else this.stop();
      }
      this.t = 1;
    } else {
      this.t += seconds / duration;
      if (this.t >= 1) {
        if (this.mode === 'all' && this.index < this.steps.length - 1) {
          this.index += 1;
          this.t = 0;
          stepChanged = true;
        } else {
          this.t = 1;
          this.stop();
        }
      }
    }
    this.onChange({ stepChanged, reason: 'tick' });
    if (this.mode && !this.frameId) this.frameId = this.requestFrame((next) => this.tick(next));
  }
}

// The scrubber's knob. Each stage has a ring under the scrubber (stage-marks.mjs), laid out by
// time on a laptop and spread evenly on a phone (a phone's one-step stages would stand closer
// than a finger). The knob follows the rings, not the clock: stage k's steps share the section
// from ring k to ring k + 1 in proportion to their time, and a stage finished stops a gap short
// of the next ring (the clock of a finished step ends where the next step starts: stage 15
// finished put the knob on ring 17 of a phone, stage 8 finished beside ring 9 of a laptop). The
// gap is the rings' `gap`, at most KNOB_STAGE_GAP of a section; the last stage runs to the end.
// Before the rings are measured (and in unit tests), they stand by time (ringsByTime).
export const KNOB_STAGE_GAP = 2 / 3;

/**
 * The rings by time: each stage's first step's share of the timeline, and a gap of
 * KNOB_STAGE_GAP of a step.
 * @returns {{ at: number[], gap: number }} shares of the knob's travel, 0 to 1
 */
export function ringsByTime(steps) {
  const at = stageRuns(steps).map(({ first }) => first / steps.length);
  return { at, gap: KNOB_STAGE_GAP / steps.length };
}

/** Each stage's run of steps, in order: its first step and how many. */
function stageRuns(steps) {
  const runs = [];
  steps.forEach((step, index) => {
    if (index === 0 || steps[index - 1].stage !== step.stage) runs.push({ first: index, count: 0 });
    runs[runs.length - 1].count += 1;
  });
  return runs;
}

/**
 * Each stage's section of the knob's travel: from its ring (`from`), its steps over `run`,
 * then the gap up to the next ring (`to`). Rings out of order are taken in order.
 */
function sections(steps, rings = ringsByTime(steps)) {
  const runs = stageRuns(steps);
  const clamp = (x) => Math.min(1, Math.max(0, x));
  let from = 0;
  const starts = runs.map(({ first }, j) => {
    from = Math.max(from, clamp(rings.at[j] ?? first / steps.length));
    return from;
  });
  return runs.map((run, j) => {
    const to = j === runs.length - 1 ? 1 : starts[j + 1];
    const width = to - starts[j];
    const gap = j === runs.length - 1 ? 0 : Math.min(rings.gap, width * KNOB_STAGE_GAP);
    return { ...run, from: starts[j], to, run: width - gap };
  });
}

/**
 * The knob's share of its travel (0 to 1) for step `index` at `t`.
 * @param {{ at: number[], gap: number }} [rings] where the rings stand (default: by time)
 */
export function knobPosition(steps, index, t, rings) {
  const section = sections(steps, rings).find(
    ({ first, count }) => index >= first && index < first + count,
  );
  return section.from + ((index - section.first + t) / section.count) * section.run;
}

/**
 * The step and t at the knob's share `share` (knobPosition's inverse). In the gap before a
 * ring, the first half is the stage's last step finished, the second the next stage's start.
 * @returns {{ index: number, t: number }}
 */
export function stepAtKnob(steps, share, rings) {
  const all = sections(steps, rings);
  const at = Math.min(Math.max(0, share), 1);
  const section = all.findLast(({ from }, j) => j === 0 || from <= at);
  const { first, count, from, run, to } = section;
  const into = at - from;
  if (into <= run) {
    const done = run > 0 ? (Math.max(0, into) / run) * count : at >= 1 ? count : 0; // steps
    // (A step's start read back as the step before it finished, by a rounding error, would
    // move the step shown.)
    const index = Math.min(first + Math.floor(done + 1e-9), first + count - 1);
    return { index, t: Math.min(1, Math.max(0, done - (index - first))) };
  }
  const last = first + count - 1;
  return into < run + (to - from - run) / 2 ? { index: last, t: 1 } : { index: last + 1, t: 0 };
}

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

// The scrubber's knob. The stage marks stand where each stage's first step starts, and a
// finished step's clock ends where the next step starts: for a stage's last step, that is the
// next stage's mark, so the knob of a finished stage stood on the next stage's mark (stage 17
// shown, the knob on mark 18). The knob's coordinate therefore runs through a stage's last step
// only up to KNOB_STAGE_GAP of a step before the next mark, and reaches the mark as the next
// stage begins. The timeline's very last step runs to the end.
export const KNOB_STAGE_GAP = 2 / 3;

const endsStage = (steps, index) =>
  index < steps.length - 1 && steps[index + 1].stage !== steps[index].stage;

/** The knob's coordinate (0 to steps.length) for step `index` at `t`. */
export function knobPosition(steps, index, t) {
  return index + (endsStage(steps, index) ? t * (1 - KNOB_STAGE_GAP) : t);
}

/**
 * The step and t at knob coordinate `position` (knobPosition's inverse). In the gap before a
 * mark, the first half is the stage's last step finished, the second the next stage's start.
 * @returns {{ index: number, t: number }}
 */
export function stepAtKnob(steps, position) {
  const clamped = Math.min(Math.max(0, position), steps.length);
  const index = Math.min(Math.floor(clamped), steps.length - 1);
  const into = Math.min(1, clamped - index);
  if (!endsStage(steps, index)) return { index, t: into };
  const run = 1 - KNOB_STAGE_GAP;
  if (into <= run) return { index, t: into / run };
  return into < 1 - KNOB_STAGE_GAP / 2 ? { index, t: 1 } : { index: index + 1, t: 0 };
}

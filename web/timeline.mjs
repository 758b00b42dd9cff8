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
    const stepChanged = index !== this.index;
    this.index = index;
    this.t = Math.min(1, clamped - index);
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

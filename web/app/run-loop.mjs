// The start/pause loop of a live training run, one for chapter 3's (app/training.mjs) and
// chapter 4's (app/language-run.mjs): the run's status ('idle' | 'starting' | 'running' |
// 'paused' | 'done' | 'failed') and its running time, a trainer asked for chunk after chunk
// until the run ends, is paused, or a reset ends it. What a chunk is (its steps, a pause
// after it, a sample) and what is read once the trainer stops are each run's own.

/**
 * @param {object} run the run's state: status, error, runningMs are written here
 * @param {{ notify: () => void, ensure: () => Promise<object>,
 *   current: () => Promise<object> | null, canStart: () => boolean,
 *   trainChunks: (ready: object, isCurrent: () => boolean) => Promise<void>,
 *   afterStop?: (ready: object, isCurrent: () => boolean) => Promise<void> }} hooks
 *   ensure: the trainer (started at the first need); current: the trainer if there is one;
 *   canStart: whether Train may start now;
 *   trainChunks: trains until done or !isCurrent(); afterStop: what to read from the model
 *   once it stopped (at the end or on pause) before the status says so
 * @returns {{ start, pause, fail, end, seconds }} end() lets the loop that runs go (a reset
 *   or a new model follows); seconds() is the time spent running, pauses left out
 */
export function createRunLoop(run, hooks) {
  const { notify, ensure, current, canStart, trainChunks, afterStop } = hooks;
  let loopId = 0; // the loop that may go on; a pause, a reset or a failure ends the others
  let resumedAt = 0; // performance.now() when the run last began running

  function fail(error) {
    run.status = 'failed';
    run.error = String(error?.message ?? error);
    loopId += 1;
    notify();
  }

  /** The run's status from now on; the time since it began running into runningMs. */
  function settle(status) {
    if (run.status === 'running') run.runningMs += performance.now() - resumedAt;
    run.status = status;
  }

  const seconds = () =>
    (run.runningMs + (run.status === 'running' ? performance.now() - resumedAt : 0)) / 1000;

  async function start() {
    if (run.status === 'running' || run.status === 'starting' || !canStart()) return;
    run.status = 'starting';
    run.error = '';
    const id = ++loopId;
    const isCurrent = () => id === loopId;
    notify();
    try {
      const ready = await ensure();
      if (!isCurrent()) return;
      resumedAt = performance.now();
      run.status = 'running';
      notify();
      await trainChunks(ready, isCurrent);
      if (isCurrent() && afterStop) await afterStop(ready, isCurrent);
      if (isCurrent()) {
        settle('done');
        notify();
      }
    } catch (error) {
      if (isCurrent()) fail(error);
    }
  }

  /** Stops the trainer (its last progress comes before stop's answer), then says 'paused'. */
  async function pause() {
    if (run.status !== 'running' && run.status !== 'starting') return;
    const id = ++loopId;
    try {
      const ready = await current();
      await ready?.stop();
      if (ready && afterStop) await afterStop(ready, () => id === loopId);
    } catch (error) {
      return fail(error);
    }
    // Only now, so the step shown after Pause (and exported) stays put.
    settle('paused');
    notify();
  }

  return { start, pause, fail, seconds, end: () => (loopId += 1) };
}

// The page's frames as a Chromium trace records them (bench/page-metrics.mjs --trace): the
// renderer's main thread frame by frame, from one BeginMainThreadFrame to the next, with what
// the thread did in each. Besides each frame's length (wall time, which other processes on a
// shared machine stretch), it gives the main thread's own CPU time per frame (the trace's
// thread time), which they do not: a frame the page itself makes long shows there. And every
// forced layout: a style or layout pass run inside a script (a read of the layout after a
// change), which costs the frame a whole layout before its own.

/** What page-metrics asks Chromium to record. */
export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  // V8's own spans (compiling, running a script): what a long task spent outside the
  // timeline's events.
  'v8.execute',
];

// Events in which the page's scripts run: a layout inside one of them was forced by a script.
const SCRIPT_EVENTS = new Set([
  'FunctionCall',
  'FireAnimationFrame',
  'TimerFire',
  'EventDispatch',
  'FireIdleCallback',
  'EvaluateScript',
  'v8.callFunction',
]);
const LAYOUT_EVENTS = new Set(['Layout', 'UpdateLayoutTree']);
// What a frame's CPU time is broken down into (nested ones overlap: a forced Layout is inside
// its FireAnimationFrame).
const PARTS = new Set([
  ...SCRIPT_EVENTS,
  ...LAYOUT_EVENTS,
  'Paint',
  'PrePaint',
  'Layerize',
  'MinorGC',
  'MajorGC',
  'ParseHTML',
]);

/**
 * The frames of the busiest renderer main thread in `trace` (Chromium's JSON), from the first
 * frame at or after `fromUs` (trace clock, µs) on, when given. Returns { frames, forced,
 * partsOf, tasksOf } with frames: [{ at (ms from the first frame), wallMs, cpuMs, begin, end }],
 * forced: the forced layouts [{ at, ms, name, in }] (`in`: the script event around it),
 * partsOf(frame): [name, CPU ms] of the events that start in the frame, largest first, and
 * tasksOf(frame): the frame's cpuMs (the tasks that start in it) by what each task did at its
 * top level, every ms named once (a task that starts in the frame may run past its end: the
 * two lists then differ).
 */
export function framesOfTrace(trace, { fromUs = 0 } = {}) {
  const events = (Array.isArray(trace) ? trace : trace.traceEvents).filter((e) => e.ph !== 'M');
  const mains = new Set(
    (Array.isArray(trace) ? trace : trace.traceEvents)
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // The page's main thread: the renderer main thread that began the most frames.
  const begins = new Map();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.name === 'BeginMainThreadFrame' && mains.has(thread))
      begins.set(thread, (begins.get(thread) ?? 0) + 1);
  }
  const main = [...begins].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return { frames: [], forced: [] };
  const own = events
    .filter((e) => `${e.pid}:${e.tid}` === main && e.ts >= fromUs)
    .sort((a, b) => a.ts - b.ts);
  const starts = own.filter((e) => e.name === 'BeginMainThreadFrame').map((e) => e.ts);
  // Top-level tasks only: a task run inside another (a nested loop) is in its time already.
  const tasks = [];
  for (const e of own) {
    if (e.name !== 'RunTask' || e.ph !== 'X') continue;
    const last = tasks.at(-1);
    if (!last || e.ts >= last.ts + last.dur) tasks.push(e);
  }
  const frames = [];
  for (let i = 0, t = 0; i + 1 < starts.length; i++) {
    let cpu = 0;
    for (; t < tasks.length && tasks[t].ts < starts[i + 1]; t++) {
      if (tasks[t].ts >= starts[i]) cpu += tasks[t].tdur ?? tasks[t].dur ?? 0;
    }
    frames.push({
      at: (starts[i + 1] - starts[0]) / 1000,
      wallMs: (starts[i + 1] - starts[i]) / 1000,
      cpuMs: cpu / 1000,
      begin: starts[i],
      end: starts[i + 1],
    });
  }
  const scripts = own.filter((e) => e.ph === 'X' && SCRIPT_EVENTS.has(e.name));
  const forced = own
    .filter((e) => e.ph === 'X' && LAYOUT_EVENTS.has(e.name))
    .map((e) => ({ e, around: scripts.find((s) => s.ts <= e.ts && e.ts + e.dur <= s.ts + s.dur) }))
    .filter(({ around }) => around)
    .map(({ e, around }) => ({
      at: (e.ts - (starts[0] ?? e.ts)) / 1000,
      ms: (e.tdur ?? e.dur) / 1000,
      name: e.name,
      in: around.name,
    }));
  return {
    frames,
    forced,
    partsOf: (frame) => partsOf(own, frame),
    tasksOf: (frame) => tasksOf(own, tasks, frame),
  };
}

/**
 * CPU ms of a frame's tasks by what ran at their top level: each task's direct children summed
 * by name (through the scheduler's wrapper, ThreadControllerImpl::RunTask, which holds the whole
 * task), and the time outside them as 'task itself' (work the recorded categories do not name),
 * largest first.
 */
function tasksOf(own, tasks, { begin, end }) {
  const sums = new Map();
  const add = (name, us) => sums.set(name, (sums.get(name) ?? 0) + us / 1000);
  const childrenOf = (parent) => {
    const children = [];
    let childEnd = parent.ts;
    for (const e of own) {
      if (e.ts < parent.ts || e === parent || e.ph !== 'X') continue;
      if (e.ts >= parent.ts + parent.dur) break;
      if (e.ts < childEnd || e.ts + e.dur > parent.ts + parent.dur) continue; // not a child
      childEnd = e.ts + e.dur;
      children.push(e);
    }
    return children;
  };
  const cpu = (e) => e.tdur ?? e.dur;
  // A span's time by its children, a wrapper's by its own children in turn.
  const spread = (parent) => {
    let named = 0;
    for (const e of childrenOf(parent)) {
      named += cpu(e);
      if (/RunTask$/.test(e.name)) spread(e);
      else add(e.name, cpu(e));
    }
    add('task itself', Math.max(0, cpu(parent) - named));
  };
  for (const task of tasks) if (task.ts >= begin && task.ts < end) spread(task);
  return [...sums].sort((a, b) => b[1] - a[1]);
}

/** CPU ms of each kind of event (PARTS) in a frame of framesOfTrace, largest first. */
function partsOf(own, { begin, end }) {
  const sums = new Map();
  for (const e of own) {
    if (e.ph !== 'X' || !PARTS.has(e.name) || e.ts < begin || e.ts >= end) continue;
    sums.set(e.name, (sums.get(e.name) ?? 0) + (e.tdur ?? e.dur) / 1000);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

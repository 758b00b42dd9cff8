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
 * partsOf } with frames: [{ at (ms from the first frame), wallMs, cpuMs, begin, end }], forced:
 * the forced layouts [{ at, ms, name, in }] (`in`: the script event around it), and
 * partsOf(frame): [name, CPU ms] of what ran in the frame, largest first.
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
  return { frames, forced, partsOf: (frame) => partsOf(own, frame) };
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

// The page's own speed, in headless Chromium (round 4: "10 s of chapter 1 playback and 10 s of
// chapter 3 training, on one core: no frame over 20 ms, measured by a Chromium trace; ready in
// ≤ 250 ms"; earlier rounds: load the trainer lazily). Serves dist/ with scripts/lib/serve.mjs,
// then:
//   - loads the page several times in fresh contexts and takes the median time from navigation
//     start to the moment the app marks itself ready (<html data-app-state="ready">: the first
//     step drawn with real numbers from wasm and every control live), with the milestones on
//     the way (HTML, app.js and attention.wasm received, first paint), and whether the
//     trainer's worker script (train-worker.mjs) was fetched by then: it must not be, the
//     trainer loads when chapter 3's Train stage is on screen;
//   - loads #step=train (chapter 3's live training) the same way: ready, with its Train button;
//   - presses Play at #step=1 and records requestAnimationFrame timestamps for 10 s of
//     playback, with the step shown at every frame and Chromium's long-animation-frame
//     entries (where the longest frames spent their time);
//   - presses Train at #step=train and records the frames the same way for 10 s of training
//     (the model trains in a Worker; the main thread draws the loss curve and the heads).
// With --trace, both 10 s are also recorded as a Chromium trace (page-trace.mjs): each frame's
// main-thread CPU time, which a loaded machine does not stretch as it does frame lengths, and
// every forced layout.
// Prints a markdown section; `--json` prints the raw numbers instead.
//   node bench/page-metrics.mjs [--json] [--loads 7] [--seconds 10] [--runs 1] [--settle 0]
//     [--poll] [--trace] [--dist DIR]
// --runs repeats the playback and reports every run (the machine is shared: look at the spread).
// Pin it for steadier numbers: taskset -c 0 node bench/page-metrics.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { launchChromium } from '../scripts/lib/chromium.mjs';
import { startServer } from '../scripts/lib/serve.mjs';
import { TRACE_CATEGORIES, framesOfTrace } from './page-trace.mjs';

const { values: options } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    loads: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '1' },
    settle: { type: 'string', default: '0' },
    poll: { type: 'boolean', default: false },
    dist: { type: 'string', default: new URL('../dist', import.meta.url).pathname },
    trace: { type: 'boolean', default: false },
  },
});
const LOADS = Number(options.loads);
const PLAYBACK_MS = Number(options.seconds) * 1000;
const RUNS = Number(options.runs);
const SETTLE_MS = Number(options.settle);
// Round 4's targets: no frame over 20 ms, ready within 250 ms.
const FRAME_BUDGET = 20;
const READY_BUDGET = 250;
const TRACE = options.trace;

// Runs in the page before its own scripts: notes when the app says it is ready, and keeps
// the long animation frames (over 50 ms) with what ran in them.
function instrumentPage() {
  const observer = new MutationObserver(() => {
    if (document.documentElement?.dataset.appState === 'ready' && !window.__readyAt) {
      window.__readyAt = performance.now();
      // And when the first frame after it is drawn (what the app leaves to that frame, such
      // as the stage list's scroll position, shows here).
      requestAnimationFrame(() => setTimeout(() => (window.__readyPaintedAt = performance.now())));
      observer.disconnect();
      window.__benchReady?.(); // tells the bench without it polling the page
    }
  });
  // The init script runs before <html> exists: watch the whole document.
  observer.observe(document, { attributes: true, subtree: true, childList: true });
  // Every Worker the page starts, and when: the trainer's must wait for chapter 3.
  window.__workers = [];
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(url, options) {
      window.__workers.push({ url: String(url), at: performance.now() });
      super(url, options);
    }
  };
  window.__longFrames = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__longFrames.push({
          start: entry.startTime,
          duration: entry.duration,
          // Style, layout and paint of the frame (after its scripts and rAF callbacks).
          render: entry.renderStart ? entry.startTime + entry.duration - entry.renderStart : 0,
          styleAndLayout: entry.styleAndLayoutStart
            ? entry.startTime + entry.duration - entry.styleAndLayoutStart
            : 0,
          scripts: entry.scripts.map((script) => ({
            invoker: script.invoker,
            // '' for this script's own frame counter (it runs from page.evaluate).
            sourceURL: script.sourceURL,
            duration: script.duration,
            forcedStyleAndLayout: script.forcedStyleAndLayoutDuration,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // Older Chromium: no attribution, the frame intervals still tell.
  }
}

/**
 * CPU time (user + system, ms) used so far by the descendants of a process, from /proc:
 * Chromium's work for the page, whichever of its processes does it (renderer, GPU, browser),
 * and much less disturbed by other jobs on a shared machine than frame times. null off Linux.
 */
function cpuTimeOfTree(rootPid) {
  try {
    const stats = new Map();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // The fields after the command name, which is in parentheses and may hold spaces.
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
        stats.set(Number(entry), {
          parent: Number(fields[1]),
          ticks: Number(fields[11]) + Number(fields[12]),
        });
      } catch {
        // The process ended meanwhile.
      }
    }
    const inTree = (pid) => {
      for (
        let p = stats.get(pid)?.parent, hops = 0;
        p > 1 && hops < 64;
        p = stats.get(p)?.parent, hops++
      )
        if (p === rootPid) return true;
      return false;
    };
    let ticks = 0;
    for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * A new page's window, before it navigates, left to finish its own start: a reader's browser
 * window is there before they open the page, so the page's load is timed from a window at
 * rest. (Headless Chromium 156 built each new window's omnibox popup, a WebUI page in a
 * renderer of its own, as the window opened, 88–100 ms of CPU that on the one core here fell
 * inside the page's load; scripts/lib/chromium.mjs now turns it off, and this wait covers
 * whatever else a new window does.) Waits until Chromium's processes have used under one
 * tick of CPU (10 ms) in 200 ms, or 3 s at most.
 */
async function settleWindow(page) {
  const until = performance.now() + 3000;
  let before = cpuTimeOfTree(process.pid);
  while (before !== null && performance.now() < until) {
    await page.waitForTimeout(200);
    const now = cpuTimeOfTree(process.pid);
    if (now - before < 10) return;
    before = now;
  }
}

async function measureLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // The page reports ready through a binding: waitForFunction would inject Playwright's script
  // and poll the page at every frame while it starts, which is work the page itself has to
  // share its CPU with (--poll measures that way, as this script first did).
  let reportReady;
  const ready = new Promise((resolve) => (reportReady = resolve));
  if (!options.poll) await context.exposeBinding('__benchReady', () => reportReady());
  await context.addInitScript(instrumentPage);
  const page = await context.newPage();
  await settleWindow(page);
  await page.goto(url, { waitUntil: options.poll ? 'load' : 'commit' });
  if (options.poll) await page.waitForFunction(() => window.__readyAt !== undefined);
  else await ready;
  // Let the first frame after ready paint before reading the paint timings.
  await page.evaluate(
    () =>
      new Promise((done) => {
        const wait = () =>
          window.__readyPaintedAt === undefined ? requestAnimationFrame(wait) : done();
        requestAnimationFrame(() => setTimeout(wait));
      }),
  );
  const load = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0];
    const received = (name) =>
      performance.getEntriesByType('resource').find((entry) => entry.name.endsWith(`/${name}`))
        ?.responseEnd ?? null;
    const paint = (name) =>
      performance.getEntriesByType('paint').find((entry) => entry.name === name)?.startTime ?? null;
    return {
      ready: window.__readyAt,
      readyPainted: window.__readyPaintedAt,
      // The trainer's worker started before the page was ready (it should wait for chapter 3).
      trainerBeforeReady: window.__workers.some(
        (worker) => /train-worker/.test(worker.url) && worker.at <= window.__readyAt,
      ),
      trainButton: document.querySelector('.scene-train .train-button') !== null,
      html: navigation.responseEnd,
      appJs: received('app.js'),
      wasm: received('attention.wasm'),
      firstContentfulPaint: paint('first-contentful-paint'),
      domContentLoaded: navigation.domContentLoadedEventEnd,
    };
  });
  await context.close();
  return load;
}

// What is timed frame by frame: playback of the walkthrough, and chapter 3's live training.
// mark: the element and data- key whose value tells where the page is at each frame (the
// step shown; the training step); reached: where it got to, read once the time is up.
const SCENARIOS = {
  playback: {
    hash: '#step=1',
    async prepare(page) {
      // --settle waits before pressing Play; by default Play is pressed as soon as the app is
      // ready, so the first step's first frames count as playback too.
      if (SETTLE_MS > 0) await page.waitForTimeout(SETTLE_MS);
    },
    start: (page) => page.keyboard.press('Space'), // play
    mark: ['body', 'step'],
    reached: (page) => page.evaluate(() => location.hash),
  },
  training: {
    hash: '#step=train',
    // The stage starts its worker while the reader looks at it, before Train is pressed.
    prepare: (page) =>
      page.waitForSelector('.scene-train[data-worker="ready"]', { timeout: 60_000 }),
    start: (page) => page.click('.scene-train .train-button'),
    mark: ['.scene-train', 'step'],
    reached: (page) => page.$eval('.scene-train', (e) => `training step ${e.dataset.step}`),
  },
};

/** requestAnimationFrame stamps for `duration` ms after scenario.start, and what they show. */
async function measureFrames(browser, url, parentPid, scenario) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'no-preference',
  });
  await context.addInitScript(instrumentPage);
  const page = await context.newPage();
  await settleWindow(page);
  await page.goto(`${url}${scenario.hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.appState === 'ready');
  await scenario.prepare(page);
  // Entries of frames before this still arrive after it (observers report asynchronously):
  // `since` tells them apart.
  const since = await page.evaluate(() => {
    window.__longFrames.length = 0;
    return performance.now();
  });
  const cpuBefore = cpuTimeOfTree(parentPid);
  if (TRACE) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await scenario.start(page);
  const frames = await page.evaluate(
    ([duration, [selector, key]]) =>
      new Promise((resolve) => {
        const stamps = [];
        const steps = [];
        const tick = (time) => {
          stamps.push(time);
          steps.push(document.querySelector(selector)?.dataset[key]);
          if (time - stamps[0] < duration) requestAnimationFrame(tick);
          else resolve({ stamps, steps, longFrames: window.__longFrames });
        };
        requestAnimationFrame(tick);
      }),
    [PLAYBACK_MS, scenario.mark],
  );
  const cpuAfter = cpuTimeOfTree(parentPid);
  const trace = TRACE ? traceStats(JSON.parse(await browser.stopTracing())) : null;
  const stepReached = await scenario.reached(page);
  await context.close();
  return { ...frameStats(frames, { since, cpuBefore, cpuAfter, stepReached }), trace };
}

/**
 * The trace's view of the same seconds (page-trace.mjs): the longest frame by wall time and by
 * the main thread's CPU time, how many frames exceed the budget by each, and the forced layouts.
 */
function traceStats(trace) {
  const { frames, forced, partsOf, tasksOf } = framesOfTrace(trace);
  const longest = (key) => Math.max(0, ...frames.map((frame) => frame[key]));
  return {
    frames: frames.length,
    longestWallMs: longest('wallMs'),
    longestCpuMs: longest('cpuMs'),
    overBudgetWall: frames.filter((frame) => frame.wallMs > FRAME_BUDGET).length,
    overBudgetCpu: frames.filter((frame) => frame.cpuMs > FRAME_BUDGET).length,
    slowestCpu: [...frames]
      .sort((a, b) => b.cpuMs - a.cpuMs)
      .slice(0, 3)
      .map((frame) => ({
        at: frame.at,
        cpuMs: frame.cpuMs,
        parts: partsOf(frame).slice(0, 5),
        tasks: tasksOf(frame).slice(0, 4),
      })),
    forced: forced.sort((a, b) => b.ms - a.ms),
  };
}

/** The frame intervals' numbers, and the slowest frames with their long-animation-frame entry. */
function frameStats(
  { stamps, steps, longFrames: all },
  { since, cpuBefore, cpuAfter, stepReached },
) {
  // From the press on (its own handler included, which runs before the first stamp).
  const longFrames = all.filter((long) => long.start + long.duration >= since);
  const intervals = stamps.slice(1).map((t, i) => t - stamps[i]);
  // When each frame's step began (its first frame), to tell step changes from the rest.
  const stepStart = [];
  steps.forEach(
    (step, i) => (stepStart[i] = i > 0 && step === steps[i - 1] ? stepStart[i - 1] : i),
  );
  const slow = intervals
    .map((interval, i) => ({
      at: stamps[i + 1] - stamps[0],
      interval,
      step: steps[i + 1],
      // Frames of the step so far: 0 is the frame that built it.
      stepFrame: i + 1 - stepStart[i + 1],
      end: stamps[i + 1],
    }))
    .filter((frame) => frame.interval > FRAME_BUDGET)
    .sort((a, b) => b.interval - a.interval);
  // The long animation frame that ended the slow interval, if Chromium reported one.
  for (const frame of slow) {
    const entry = longFrames.find(
      (long) => long.start < frame.end && long.start + long.duration >= frame.end - frame.interval,
    );
    frame.longFrame = entry ?? null;
    delete frame.end;
  }
  return {
    frames: stamps.length,
    longestFrame: Math.max(...intervals),
    // The longest time the page's own scripts held one frame (long animation frames only, so
    // 0 when none reached 50 ms): unlike a frame's length, not stretched by other processes.
    pageScriptsMax: Math.max(
      0,
      ...longFrames.map((long) =>
        long.scripts
          .filter((script) => script.sourceURL !== '')
          .reduce((sum, script) => sum + script.duration, 0),
      ),
    ),
    framesOverBudget: slow.length,
    // Within the first 5 frames of a step: building the step's scene and what follows.
    framesOverBudgetAtStepChange: slow.filter((frame) => frame.stepFrame < 5).length,
    medianFrame: median(intervals),
    p95Frame: percentile(intervals, 0.95),
    stepChanges: steps.filter((step, i) => i > 0 && step !== steps[i - 1]).length,
    stepReached,
    // Chromium's CPU time per second of playback, all its processes together.
    cpuMsPerSecond:
      cpuBefore === null || cpuAfter === null
        ? null
        : (cpuAfter - cpuBefore) / ((stamps.at(-1) - stamps[0]) / 1000),
    slowest: slow.slice(0, 5),
  };
}

async function measure() {
  const { server, url } = await startServer({ root: resolve(options.dist) });
  const browser = await launchChromium();
  try {
    const loads = [];
    for (let i = 0; i < LOADS; i++) loads.push(await measureLoad(browser, url));
    const trainLoads = [];
    for (let i = 0; i < LOADS; i++)
      trainLoads.push(await measureLoad(browser, `${url}#step=train`));
    const playbacks = [];
    const trainings = [];
    // Chromium runs as this process's child: its CPU time is that of our descendants.
    for (let i = 0; i < RUNS; i++) {
      playbacks.push(await measureFrames(browser, url, process.pid, SCENARIOS.playback));
      trainings.push(await measureFrames(browser, url, process.pid, SCENARIOS.training));
    }
    const milestone = (key) => {
      const values = loads.map((load) => load[key]).filter((value) => value !== null);
      return values.length ? median(values) : null;
    };
    return {
      loads,
      readyTimes: loads.map((load) => load.ready),
      readyMedian: milestone('ready'),
      milestones: {
        html: milestone('html'),
        appJs: milestone('appJs'),
        wasm: milestone('wasm'),
        firstContentfulPaint: milestone('firstContentfulPaint'),
        ready: milestone('ready'),
        readyPainted: milestone('readyPainted'),
      },
      // Chapter 3: loads of #step=train, and the frames while it trains.
      train: {
        loads: trainLoads,
        readyMedian: median(trainLoads.map((load) => load.ready)),
        trainButton: trainLoads.every((load) => load.trainButton),
      },
      trainerBeforeReady: loads.filter((load) => load.trainerBeforeReady).length,
      trainings,
      playbacks,
      // The first run's numbers at the top level, as before.
      ...playbacks[0],
    };
  } finally {
    await browser.close();
    server.close();
  }
}

/** The frames that took the main thread's CPU longest (--trace), with what ran in them. */
function slowestByCpu(runs, what) {
  const frames = runs.flatMap((run) => run.trace?.slowestCpu ?? []);
  if (!frames.length) return '';
  const list = (pairs) => pairs.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
  const lines = frames.map(
    (frame) =>
      `- ${frame.cpuMs.toFixed(1)} ms at ${(frame.at / 1000).toFixed(2)} s: ${list(frame.parts)} ms; its tasks at their top level: ${list(frame.tasks)} ms`,
  );
  return `\nFrames with the most main-thread CPU during ${what} (Chromium trace; nested events overlap):\n${lines.join('\n')}\n`;
}

/** The trace's row under a frames row (--trace), or nothing. */
function traceRow(trace, what) {
  if (!trace) return '';
  const forced = trace.forced.length
    ? `${trace.forced.length} forced layouts, the longest ${trace.forced[0].ms.toFixed(1)} ms (${trace.forced[0].name} in ${trace.forced[0].in})`
    : 'no forced layout';
  return `\n| the same ${what}, Chromium trace: frames by the main thread's CPU time | longest ${trace.longestCpuMs.toFixed(1)} ms of CPU (${trace.overBudgetCpu} of ${trace.frames} frames over ${FRAME_BUDGET} ms; by wall time the longest ${trace.longestWallMs.toFixed(1)} ms, ${trace.overBudgetWall} over); ${forced} | ≤ ${FRAME_BUDGET} ms of CPU: ${ok(trace.longestCpuMs <= FRAME_BUDGET)} |`;
}

const ok = (pass) => (pass ? 'met' : '**not met**');

const ms = (value, digits = 0) => (value === null ? '–' : `${value.toFixed(digits)} ms`);

function describeFrame(frame) {
  const where = `${frame.interval.toFixed(1)} ms at ${(frame.at / 1000).toFixed(2)} s (${frame.step}, its frame ${frame.stepFrame})`;
  const long = frame.longFrame;
  if (!long) return where;
  const scripts = long.scripts
    .map(
      (script) =>
        `${script.invoker} ${script.duration.toFixed(0)} ms` +
        (script.forcedStyleAndLayout > 0
          ? ` (${script.forcedStyleAndLayout.toFixed(0)} ms forced layout)`
          : ''),
    )
    .join(', ');
  return `${where}: long frame ${long.duration.toFixed(0)} ms, style+layout ${long.styleAndLayout.toFixed(0)} ms${scripts ? `, scripts: ${scripts}` : ''}`;
}

const result = await measure();
if (options.json) {
  console.log(JSON.stringify(result));
} else {
  const { milestones, train } = result;
  const cpu = (run) =>
    run.cpuMsPerSecond === null
      ? ''
      : `; Chromium used ${run.cpuMsPerSecond.toFixed(0)} ms of CPU per second`;
  const frameRows = (runs, what, details) =>
    runs
      .map(
        (run, k) =>
          `| longest frame during ${PLAYBACK_MS / 1000} s of ${what}${runs.length > 1 ? ` (run ${k + 1})` : ''} | ${run.longestFrame.toFixed(1)} ms (${run.frames} frames, median ${run.medianFrame.toFixed(1)} ms, p95 ${run.p95Frame.toFixed(1)} ms, ${run.framesOverBudget} over ${FRAME_BUDGET} ms${details(run)}; the page's scripts at most ${run.pageScriptsMax.toFixed(0)} ms in one frame from the press on${cpu(run)}) | ≤ ${FRAME_BUDGET} ms: ${ok(run.longestFrame <= FRAME_BUDGET)} |${traceRow(run.trace, what)}`,
      )
      .join('\n');
  const playbackRows = frameRows(
    result.playbacks,
    'playback',
    (run) =>
      `, ${run.framesOverBudgetAtStepChange} of them in a step's first 5 frames; ${run.stepChanges} step changes, reached ${run.stepReached}`,
  );
  const trainingRows = frameRows(
    result.trainings,
    "chapter 3's training (#step=train, after pressing Train; the model in a Worker)",
    (run) => `; reached ${run.stepReached}`,
  );
  const slowestOf = (runs, title) => {
    const list = runs
      .flatMap((run) => run.slowest)
      .sort((a, b) => b.interval - a.interval)
      .slice(0, 5)
      .map((frame) => `- ${describeFrame(frame)}`)
      .join('\n');
    return list ? `\n${title}:\n${list}\n` : '';
  };
  const slowest =
    slowestOf(result.playbacks, 'Slowest frames during playback (step, its frame)') +
    slowestOf(result.trainings, 'Slowest frames while training (training step, its frame)') +
    slowestByCpu(result.playbacks, 'playback') +
    slowestByCpu(result.trainings, 'training');
  const times = (loads) => loads.map((load) => load.ready.toFixed(0)).join(', ');
  // taskset -c 0 (as scripts/bench runs it) leaves one core: the trainer's Worker shares it.
  const cores = availableParallelism();
  console.log(`### The page (headless Chromium on ${cores} core${cores > 1 ? 's' : ''}, dist/ served from 127.0.0.1)

Chromium runs with the flags of scripts/lib/chromium.mjs, among them \`--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup\`: headless Chromium 156 otherwise builds its omnibox popup, a WebUI page in a renderer process of its own, for every page it opens, 88–100 ms of CPU on the one core during each load that is none of the page's (with the first feature alone it still did). Each page's window is left to settle (its processes idle for 200 ms, 3 s at most) before it navigates: a reader's window is open before the page is.

| measure | result | target |
| --- | --: | --- |
| navigation to the first interactive step (median of ${LOADS} loads) | ${result.readyMedian.toFixed(0)} ms (all: ${times(result.loads)}) | ≤ ${READY_BUDGET} ms: ${ok(result.readyMedian <= READY_BUDGET)} |
| loads where chapter 3's trainer (its worker) started before the page was ready | ${result.trainerBeforeReady} of ${LOADS} | none (the trainer loads lazily): ${ok(result.trainerBeforeReady === 0)} |
| navigation to chapter 3's Train stage interactive (#step=train, median of ${LOADS} loads) | ${train.readyMedian.toFixed(0)} ms (all: ${times(train.loads)}; Train button ${train.trainButton ? 'there' : '**missing**'} when ready) | ≤ ${READY_BUDGET} ms: ${ok(train.readyMedian <= READY_BUDGET && train.trainButton)} |
${playbackRows}
${trainingRows}

Loading, medians from navigation start: HTML received ${ms(milestones.html)}, app.js received ${ms(milestones.appJs)}, attention.wasm received ${ms(milestones.wasm)}, first contentful paint ${ms(milestones.firstContentfulPaint)}, ready ${ms(milestones.ready)}, its first frame drawn ${ms(milestones.readyPainted)}.
${slowest}`);
}

// The page's own speed, in headless Chromium (issue: "time from navigation to the first
// interactive step under 300 ms from localhost; during a 10 s playback no frame longer than
// 32 ms"). Serves dist/ with scripts/lib/serve.mjs, then:
//   - loads the page several times in fresh contexts and takes the median time from navigation
//     start to the moment the app marks itself ready (<html data-app-state="ready">: the first
//     step drawn with real numbers from wasm and every control live), with the milestones on
//     the way (HTML, app.js and attention.wasm received, first paint);
//   - presses Play at #step=1 and records requestAnimationFrame timestamps for 10 s of
//     playback, with the step shown at every frame and Chromium's long-animation-frame
//     entries (where the longest frames spent their time).
// Prints a markdown section; `--json` prints the raw numbers instead.
//   node bench/page-metrics.mjs [--json] [--loads 7] [--seconds 10] [--runs 1] [--settle 0]
//     [--poll] [--dist DIR]
// --runs repeats the playback and reports every run (the machine is shared: look at the spread).
// Pin it for steadier numbers: taskset -c 0 node bench/page-metrics.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { launchChromium } from '../scripts/lib/chromium.mjs';
import { startServer } from '../scripts/lib/serve.mjs';

const { values: options } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    loads: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '1' },
    settle: { type: 'string', default: '0' },
    poll: { type: 'boolean', default: false },
    dist: { type: 'string', default: new URL('../dist', import.meta.url).pathname },
  },
});
const LOADS = Number(options.loads);
const PLAYBACK_MS = Number(options.seconds) * 1000;
const RUNS = Number(options.runs);
const SETTLE_MS = Number(options.settle);
const FRAME_BUDGET = 32;

// Runs in the page before its own scripts: notes when the app says it is ready, and keeps
// the long animation frames (over 50 ms) with what ran in them.
function instrumentPage() {
  const observer = new MutationObserver(() => {
    if (document.documentElement?.dataset.appState === 'ready' && !window.__readyAt) {
      window.__readyAt = performance.now();
      observer.disconnect();
      window.__benchReady?.(); // tells the bench without it polling the page
    }
  });
  // The init script runs before <html> exists: watch the whole document.
  observer.observe(document, { attributes: true, subtree: true, childList: true });
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
  await page.goto(url, { waitUntil: options.poll ? 'load' : 'commit' });
  if (options.poll) await page.waitForFunction(() => window.__readyAt !== undefined);
  else await ready;
  // Let the first frame after ready paint before reading the paint timings.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
  const load = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0];
    const received = (name) =>
      performance.getEntriesByType('resource').find((entry) => entry.name.endsWith(`/${name}`))
        ?.responseEnd ?? null;
    const paint = (name) =>
      performance.getEntriesByType('paint').find((entry) => entry.name === name)?.startTime ?? null;
    return {
      ready: window.__readyAt,
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

async function measurePlayback(browser, url, parentPid) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'no-preference',
  });
  await context.addInitScript(instrumentPage);
  const page = await context.newPage();
  await page.goto(`${url}#step=1`);
  await page.waitForFunction(() => document.documentElement.dataset.appState === 'ready');
  // --settle waits before pressing Play; by default Play is pressed as soon as the app is
  // ready, so the first step's first frames count as playback too.
  if (SETTLE_MS > 0) await page.waitForTimeout(SETTLE_MS);
  await page.evaluate(() => {
    window.__longFrames.length = 0;
  });
  const cpuBefore = cpuTimeOfTree(parentPid);
  await page.keyboard.press('Space'); // play
  const frames = await page.evaluate(
    (duration) =>
      new Promise((resolve) => {
        const stamps = [];
        const steps = [];
        const tick = (time) => {
          stamps.push(time);
          steps.push(document.body.dataset.step);
          if (time - stamps[0] < duration) requestAnimationFrame(tick);
          else resolve({ stamps, steps, longFrames: window.__longFrames });
        };
        requestAnimationFrame(tick);
      }),
    PLAYBACK_MS,
  );
  const cpuAfter = cpuTimeOfTree(parentPid);
  const stepReached = await page.evaluate(() => location.hash);
  await context.close();

  const { stamps, steps, longFrames } = frames;
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
    framesOver32: slow.length,
    // Within the first 5 frames of a step: building the step's scene and what follows.
    framesOver32AtStepChange: slow.filter((frame) => frame.stepFrame < 5).length,
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
    const playbacks = [];
    // Chromium runs as this process's child: its CPU time is that of our descendants.
    for (let i = 0; i < RUNS; i++) playbacks.push(await measurePlayback(browser, url, process.pid));
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
      },
      playbacks,
      // The first run's numbers at the top level, as before.
      ...playbacks[0],
    };
  } finally {
    await browser.close();
    server.close();
  }
}

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
  const ok = (pass) => (pass ? 'met' : '**not met**');
  const { milestones } = result;
  const playbackRows = result.playbacks
    .map(
      (run, k) =>
        `| longest frame during ${PLAYBACK_MS / 1000} s of playback${result.playbacks.length > 1 ? ` (run ${k + 1})` : ''} | ${run.longestFrame.toFixed(1)} ms (${run.frames} frames, median ${run.medianFrame.toFixed(1)} ms, p95 ${run.p95Frame.toFixed(1)} ms, ${run.framesOver32} over 32 ms, ${run.framesOver32AtStepChange} of them in a step's first 5 frames; ${run.stepChanges} step changes, reached ${run.stepReached}${run.cpuMsPerSecond === null ? '' : `; Chromium used ${run.cpuMsPerSecond.toFixed(0)} ms of CPU per second`}) | ≤ 32 ms: ${ok(run.longestFrame <= FRAME_BUDGET)} |`,
    )
    .join('\n');
  const slowest = result.playbacks
    .flatMap((run) => run.slowest)
    .sort((a, b) => b.interval - a.interval)
    .slice(0, 5)
    .map((frame) => `- ${describeFrame(frame)}`)
    .join('\n');
  console.log(`### The page (headless Chromium, dist/ served from 127.0.0.1)

| measure | result | target |
| --- | --: | --- |
| navigation to the first interactive step (median of ${LOADS} loads) | ${result.readyMedian.toFixed(0)} ms (all: ${result.readyTimes.map((t) => t.toFixed(0)).join(', ')}) | < 300 ms: ${ok(result.readyMedian < 300)} |
${playbackRows}

Loading, medians from navigation start: HTML received ${ms(milestones.html)}, app.js received ${ms(milestones.appJs)}, attention.wasm received ${ms(milestones.wasm)}, first contentful paint ${ms(milestones.firstContentfulPaint)}, ready ${ms(milestones.ready)}.
${slowest ? `\nSlowest frames:\n${slowest}\n` : ''}`);
}

// The text benchmark in Chromium (bench/common/text-bench.mjs says what each part measures):
// TEXT_MODEL trained from scratch on each text as chapter 4 of the page trains it, through
// createTrainer({ config: TEXT_MODEL, task: { text, ...TEXT_TASK } }) in its Worker, for a
// budget of wall time (the bench page is not cross-origin isolated: one thread), paused at
// evenly spaced checks to score a copy of its parameters here; then the snapshot, and ours
// against tfjs-wasm per step in this thread. Every score is the Node run's own code.
import {
  TEXT_BENCH_TEXTS,
  checkPoint,
  snapshotPoint,
  stepTimes,
  textBudget,
  textRounds,
  textTaskOf,
} from '../common/text-bench.mjs';

/** Steps asked of the trainer at once: more than a minute holds (the checks pause it). */
const RUN_STEPS = 1e7;
/** Steps between its progress events, as chapter 4 asks (web/model/language.mjs). */
const PROGRESS_EVERY = 10;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * One text's loss against wall time: a fresh trainer trains; at each check it is paused, its
 * parameters are scored here (held-out loss, a sample, its 5/7 lines), and it resumes. Only
 * the time it ran counts. { steps, msPerStep (trainStep alone, from its progress events),
 * wallMsPerStep, points }.
 */
async function trainerCurve(lib, attn, { text, verse }, { seconds, checks }) {
  const { TEXT_BATCH, TEXT_MODEL, TEXT_TASK } = lib;
  const task = textTaskOf(lib, text);
  let timed = 0; // steps and ms of trainStep alone, from the progress events
  let stepMs = 0;
  const trainer = await lib.createTrainer({
    config: TEXT_MODEL,
    task: { text, ...TEXT_TASK },
    seed: 1,
    batch: TEXT_BATCH,
    onProgress({ losses, msPerStep }) {
      timed += losses.length;
      stepMs += msPerStep * losses.length;
    },
  });
  const copy = attn.createTinyTransformer({ ...TEXT_MODEL, vocabSize: task.vocabSize });
  const points = [];
  let ran = 0; // ms of wall time the trainer ran
  let step = 0;
  try {
    let resumed = performance.now();
    const run = trainer.train({ steps: RUN_STEPS, progressEvery: PROGRESS_EVERY });
    run.catch(() => {}); // a failed run rejects pause() or stop() below too
    for (let check = 1; check <= checks; check++) {
      await sleep((seconds * 1000 * check) / checks - ran);
      ({ step } = await trainer.pause());
      ran += performance.now() - resumed;
      copy.loadParameters(await trainer.parameters());
      points.push(checkPoint(lib, copy, task, { text, verse, seconds: ran / 1000, step, check }));
      if (check < checks) {
        resumed = performance.now();
        await trainer.resume();
      }
    }
    await trainer.stop();
    await run;
  } finally {
    trainer.close();
    copy.free();
  }
  return { steps: step, msPerStep: stepMs / timed, wallMsPerStep: ran / step, points };
}

/**
 * Both texts' curves, snapshots and step times, as bench/text-node.mjs writes them. lib: the
 * module's namespace (dist/attention.mjs), attn: an instance of it in this page; tf: tfjs with
 * gradients registered and its wasm backend at one thread.
 */
export async function runTextBench({ lib, attn, tf, quick, log }) {
  const budget = textBudget(quick);
  const results = [];
  for (const entry of TEXT_BENCH_TEXTS) {
    const text = await (await fetch(`/dist/texts/${entry.file}`)).text();
    const snapshotFile = (ext) => fetch(`/web/snapshots/${entry.name}.${ext}`);
    const manifest = await (await snapshotFile('json')).json();
    const bytes = new Uint8Array(await (await snapshotFile('f16')).arrayBuffer());
    const curve = await trainerCurve(lib, attn, { text, verse: entry.verse }, budget);
    const last = curve.points.at(-1);
    log(
      `${entry.name}: ${curve.steps} steps in ${last.seconds.toFixed(1)} s, held-out ${last.loss.toFixed(3)} nats/char` +
        (last.verse ? `, 5/7 lines ${(100 * last.verse.share).toFixed(1)}%` : ''),
    );
    const snapshot = snapshotPoint(lib, attn, { text, verse: entry.verse, manifest, bytes });
    log(`${entry.name}: snapshot (${snapshot.steps} steps) held-out ${snapshot.loss.toFixed(3)}`);
    const steps = await stepTimes({ lib, attn, tf }, text, textRounds(quick));
    log(
      `${entry.name}: ms/step ours ${steps.ms.ours.toFixed(1)}, tfjs ${steps.ms.tfjs.toFixed(1)}, ours with RoPE ${steps.ms.oursRope.toFixed(1)}`,
    );
    results.push({ text: entry.name, verse: entry.verse, budget, curve, snapshot, steps });
  }
  return { quick, results };
}

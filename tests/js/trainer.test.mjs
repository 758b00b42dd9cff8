// createTrainer's protocol (src/js/training/trainer.mjs, the host, and src/js/training/train-session.mjs, the
// worker), in Node's worker_threads, with a stand-in model (fixtures/fake-train-worker.mjs):
// progress events, pause / resume / stop, parameters out and in, evaluate, reset, refused
// options, and workers that misbehave (garbage messages, a crash, a throwing step) rejecting
// with named errors instead of hanging or crashing the host. The real model learning through
// the same protocol is tests/js/induction.test.mjs's job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { createTrainer, TrainerError } from '../../src/js/training/trainer.mjs';

const fakeWorker = new URL('./fixtures/fake-train-worker.mjs', import.meta.url);
const CONFIG = { vocabSize: 16, context: 25, dModel: 8, layers: 2, heads: 3, positions: 'learned' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function start(options = {}) {
  return createTrainer({ config: CONFIG, workerUrl: fakeWorker, batch: 4, ...options });
}

test("progress: each step's loss once, in order, with attention where asked", async () => {
  const events = [];
  const trainer = await start({ onProgress: (event) => events.push(event) });
  const result = await trainer.train({ steps: 25, progressEvery: 10, attentionEvery: 20 });
  assert.deepEqual(result, { step: 25, loss: 4 / 25, stopped: false });
  assert.deepEqual(
    events.map((e) => [e.step, e.losses.length, 'attention' in e]),
    [
      [10, 10, false],
      [20, 10, true],
      [25, 5, false],
    ],
  );
  const losses = events.flatMap((e) => [...e.losses]);
  assert.deepEqual(
    losses,
    Array.from({ length: 25 }, (_, k) => Math.fround(4 / (k + 1))),
  );
  assert.equal(events[1].loss, 4 / 20);
  assert.deepEqual(events[1].attention.dims, [2, 1, 3, 25, 25]);
  assert.ok(
    events.every((e) => e.msPerStep >= 0.9 && e.msPerStep < 50),
    'about 1 ms a step',
  );
  // A second run continues from where the first ended.
  assert.equal((await trainer.train({ steps: 5 })).step, 30);
  assert.equal(trainer.step, 30);
  trainer.close();
});

test('pause holds the step still until resume; stop ends the run early', async () => {
  const trainer = await start();
  const run = trainer.train({ steps: 100_000, progressEvery: 5 });
  await sleep(50);
  const paused = await trainer.pause();
  await sleep(100);
  assert.equal((await trainer.pause()).step, paused.step, 'no step while paused');
  assert.ok(paused.step > 0);
  await trainer.resume();
  await sleep(50);
  const stopped = await trainer.stop();
  assert.ok(stopped.step > paused.step, 'it trained again after resume');
  const result = await run;
  assert.equal(result.stopped, true);
  assert.ok(result.step >= stopped.step && result.step < 100_000);
  trainer.close();
});

test('one run at a time; reset starts over at step 0 and ends the run', async () => {
  const trainer = await start();
  const run = trainer.train({ steps: 100_000 });
  await assert.rejects(trainer.train({ steps: 1 }), /a run is already going/);
  await sleep(30);
  assert.deepEqual(await trainer.reset({ seed: 9 }), { step: 0 });
  assert.equal((await run).stopped, true);
  assert.equal((await trainer.train({ steps: 3 })).loss, 4 / 3, 'a fresh model');
  trainer.close();
});

test('parameters out and back in; evaluate reports loss, accuracy and every head', async () => {
  const trainer = await start({ seed: 5 });
  await trainer.train({ steps: 7 });
  const saved = await trainer.parameters();
  assert.deepEqual(saved, { weight: { data: Float32Array.of(12), dims: [1] } });
  await trainer.train({ steps: 3 });
  await trainer.loadParameters(JSON.parse(JSON.stringify({ weight: { data: [12], dims: [1] } })));
  assert.deepEqual((await trainer.parameters()).weight.data, Float32Array.of(12));
  // The host knows the model's tensors (init's answer): wrong dims are refused at once.
  assert.throws(() => trainer.loadParameters({ weight: { data: [1, 2], dims: [2] } }), {
    name: 'RangeError',
    message: "loadParameters: parameters['weight'].dims must be [1], got [2]",
  });
  assert.throws(() => trainer.loadParameters(null), { name: 'TypeError', message: /got null/ });
  const evaluation = await trainer.evaluate({ batch: 6 });
  assert.equal(evaluation.step, 10);
  assert.deepEqual(evaluation.attention.dims, [2, 6, 3, 25, 25]);
  assert.equal(evaluation.tokens.length, 6 * 25);
  assert.ok(evaluation.accuracy >= 0 && evaluation.accuracy < 0.5);
  // The stand-in's logits are one-hot (1 on its guess, 0 elsewhere): the cross-entropy is
  // log(15 + e) on a miss and that minus 1 on a hit.
  const miss = Math.log(15 + Math.E);
  assert.ok(Math.abs(evaluation.loss - (miss - evaluation.accuracy)) < 1e-6, `${evaluation.loss}`);
  trainer.close();
});

test('bad options are refused by name before any worker starts; a bad config by the model', async () => {
  await assert.rejects(createTrainer(), {
    name: 'TypeError',
    message: /options must be an object/,
  });
  await assert.rejects(start({ batch: 0 }), { name: 'RangeError', message: /batch .* got 0/ });
  await assert.rejects(start({ seed: '1' }), { name: 'TypeError', message: /seed/ });
  await assert.rejects(start({ task: 'copy' }), { name: 'RangeError', message: /task must be/ });
  await assert.rejects(start({ config: { ...CONFIG, context: 10 } }), {
    name: 'RangeError',
    message: /config.context must be at least 25 for the induction task, got 10/,
  });
  await assert.rejects(start({ config: { ...CONFIG, depth: 3 } }), {
    name: 'TypeError',
    message: /unknown option 'depth'/,
  });
  await assert.rejects(start({ threads: 0 }), {
    name: 'RangeError',
    message: /createTrainer: options.threads must be an integer from 1 to 64 or 'auto', got 0/,
  });
  await assert.rejects(start({ threads: '2' }), { name: 'TypeError', message: /threads/ });
  await assert.rejects(start({ config: { ...CONFIG, dModel: 0 } }), {
    name: 'RangeError',
    message: 'dModel must be a positive integer, got 0',
  });
  const trainer = await start();
  assert.throws(() => trainer.train({ steps: 0 }), { name: 'RangeError', message: /steps/ });
  assert.throws(() => trainer.train({ step: 5 }), { name: 'TypeError', message: /'step'/ });
  assert.equal((await trainer.train({ steps: 2 })).step, 2, 'refused calls changed nothing');
  trainer.close();
});

test('a worker that posts null rejects with a TrainerError and the host carries on', async () => {
  const trainer = await start({ config: { ...CONFIG, positions: 'garbage' } });
  await assert.rejects(trainer.train({ steps: 1000, progressEvery: 1 }), {
    name: 'TrainerError',
    message: /sent null, not a message of its protocol/,
  });
  assert.equal(trainer.closed, true);
  await assert.rejects(trainer.parameters(), { name: 'TrainerError' });
});

test('a worker that dies mid-run, a step that throws, a closed trainer: named errors, no hang', async () => {
  const crashing = await start({ config: { ...CONFIG, positions: 'exit' } });
  await assert.rejects(crashing.train({ steps: 50 }), {
    name: 'TrainerError',
    message: /worker stopped: it exited with code 3/,
  });
  const throwing = await start({ config: { ...CONFIG, positions: 'throw' } });
  await assert.rejects(throwing.train({ steps: 50 }), {
    name: 'RangeError',
    message: 'trainStep: broken',
  });
  assert.equal(throwing.closed, false, 'the worker survives its model throwing');
  assert.equal((await throwing.pause()).step, 3);
  throwing.close();
  const closing = await start();
  const run = closing.train({ steps: 100_000 });
  closing.close();
  await assert.rejects(run, { name: 'TrainerError', message: 'the trainer was closed' });
  await assert.rejects(closing.evaluate(), TrainerError);
});

test('an onProgress that throws ends its run with that error; the trainer stays usable', async () => {
  const oops = new Error('listener broke');
  const trainer = await start({
    onProgress: (event) => {
      if (event.step === 20) throw oops;
    },
  });
  await assert.rejects(trainer.train({ steps: 1000, progressEvery: 10 }), oops);
  await sleep(20);
  const { step } = await trainer.pause();
  assert.ok(step >= 20 && step < 1000, `stopped near step 20, at ${step}`);
  assert.equal((await trainer.train({ steps: 5, progressEvery: 100 })).step, step + 5);
  trainer.close();
});

test('an idle trainer, even after its listener threw, does not keep Node alive', async () => {
  const script = `
    import { createTrainer } from ${JSON.stringify(new URL('../../src/js/training/trainer.mjs', import.meta.url).href)};
    const trainer = await createTrainer({
      config: ${JSON.stringify(CONFIG)},
      workerUrl: new URL(${JSON.stringify(fakeWorker.href)}),
      onProgress: (event) => { if (event.step === 20) throw new Error('listener broke'); },
    });
    await trainer.train({ steps: 1000 }).catch((error) => console.log(error.message));
    console.log('done, not closed');
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { timeout: 20_000 },
  );
  assert.equal(stdout, 'listener broke\ndone, not closed\n');
});

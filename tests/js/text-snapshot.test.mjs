// Snapshots of trained text models (src/js/tasks/text-snapshot.mjs, scripts/train-snapshots.mjs):
// float16 round trips within half precision's rounding and loads back into a model; a wrong
// manifest or size is a named error; and each committed snapshot in web/snapshots/ is at most
// 1 MB, matches its manifest and its text, scores on the held-out tenth what its manifest says,
// and writes the manifest's sample again from its seed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import createAttention, { createTextTask } from '../../dist/attention.mjs';
import {
  SNAPSHOT_FORMAT,
  decodeSnapshot,
  encodeSnapshot,
} from '../../src/js/tasks/text-snapshot.mjs';
import { heldOutLoss } from '../../examples/node/text-minute.mjs';
import { sampleText } from '../../examples/node/train-text.mjs';

const attn = await createAttention({ relaxedSimd: false });
const root = new URL('../../', import.meta.url);

test('float16 snapshots round trip within half precision and load into a model', () => {
  const config = { vocabSize: 7, context: 8, dModel: 8, layers: 1, heads: 2, mlpSize: 8, seed: 5 };
  const model = attn.createTinyTransformer(config);
  const parameters = model.parameters();
  const { tensors, bytes } = encodeSnapshot(parameters);
  const count = Object.values(parameters).reduce((sum, { data }) => sum + data.length, 0);
  assert.equal(bytes.length, 2 * count);
  assert.deepEqual(
    tensors,
    Object.entries(parameters).map(([name, { dims }]) => [name, dims]),
  );
  const manifest = { format: SNAPSHOT_FORMAT, tensors };
  const back = decodeSnapshot(manifest, bytes);
  for (const [name, { data }] of Object.entries(parameters)) {
    data.forEach((x, i) => {
      const error = Math.abs(back[name].data[i] - x);
      assert.ok(
        error <= Math.abs(x) * 2 ** -11 + 2 ** -25,
        `${name}[${i}]: ${x} -> ${back[name].data[i]}`,
      );
    });
  }
  model.loadParameters(back);
  assert.deepEqual(decodeSnapshot(manifest, bytes.buffer), back);
  model.free();

  assert.throws(() => decodeSnapshot({ format: 'x', tensors }, bytes), {
    name: 'TypeError',
    message: /manifest must be a snapshot manifest/,
  });
  assert.throws(() => decodeSnapshot(manifest, bytes.subarray(2)), {
    name: 'RangeError',
    message: new RegExp(
      `hold ${count} numbers \\(${2 * count} bytes of float16\\), got ${2 * count - 2} bytes`,
    ),
  });
  assert.throws(() => decodeSnapshot(manifest, [1, 2]), {
    name: 'TypeError',
    message: /bytes must be/,
  });
});

for (const name of ['poems', 'english']) {
  test(`the committed ${name} snapshot: small, its text's, its loss, its sample`, () => {
    const manifest = JSON.parse(readFileSync(new URL(`web/snapshots/${name}.json`, root), 'utf8'));
    const bytes = readFileSync(new URL(`web/snapshots/${name}.f16`, root));
    assert.ok(bytes.length <= 1024 * 1024, `${bytes.length} bytes`);
    assert.equal(bytes.length, manifest.bytes);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), manifest.bytesSha256);
    const textFile = new URL(manifest.text, root);
    assert.ok(existsSync(textFile), `${manifest.text}: run scripts/build`);
    const text = readFileSync(textFile, 'utf8');
    assert.equal(createHash('sha256').update(text).digest('hex'), manifest.textSha256);

    // The tokenizer the snapshot was trained with: the manifest's task options.
    const task = createTextTask(text, { ...manifest.task, context: manifest.config.context });
    assert.equal(task.vocabSize, manifest.vocabSize);
    const model = attn.createTinyTransformer(manifest.config);
    try {
      model.loadParameters(decodeSnapshot(manifest, bytes));
      const { loss } = heldOutLoss(model, task);
      assert.ok(Math.abs(loss - manifest.heldOutLoss) < 1e-4, `${loss} vs ${manifest.heldOutLoss}`);
      const { prompt, ...sampling } = manifest.sampling;
      const sample = sampleText(model, task.tokenizer, prompt, 240, sampling);
      assert.equal(sample, manifest.sample);
    } finally {
      model.free();
    }
  });
}

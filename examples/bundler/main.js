// An app built with a bundler: the package imported by name, as from npm, and nothing
// bundler-specific. Vite, webpack 5, esbuild and Rollup build this same file (README.md,
// "Bundlers", gives each one's recipe), and importmap.html runs it with no bundler at all;
// tests/apps builds all five and runs them in Chromium.
import createAttention, {
  createAttentionPool,
  createTrainer,
  INDUCTION_MODEL,
} from 'attention-explained';
import 'attention-explained/attention-explainer.mjs'; // defines <attention-explainer>

// The article's example: three tokens of 4 numbers, and its three weight matrices.
const article = {
  x: [
    [1, 0, 1, 0],
    [0, 2, 0, 2],
    [1, 1, 1, 1],
  ],
  wQuery: [
    [1, 0, 1],
    [1, 0, 0],
    [0, 0, 1],
    [0, 1, 1],
  ],
  wKey: [
    [0, 0, 1],
    [1, 1, 0],
    [0, 1, 0],
    [1, 1, 0],
  ],
  wValue: [
    [0, 2, 0],
    [0, 3, 0],
    [1, 0, 3],
    [1, 1, 0],
  ],
};

// The page: what each part gave, and two explainers (the article's result, and chapter 3's
// training, which runs in the element's own worker).
const out = document.createElement('pre');
document.body.append(out);
for (const [id, step] of [
  ['result', 'result'],
  ['train', 'train'],
]) {
  const explainer = document.createElement('attention-explainer');
  Object.assign(explainer, { id });
  explainer.setAttribute('step', step);
  explainer.setAttribute('controls', 'minimal');
  document.body.append(explainer);
}

const results = {}; // what each part gave (read by tests/apps too)
const show = () => (out.textContent = JSON.stringify(results, null, 1));

/** Runs one part of the app; a part that fails says why, and the others still run. */
async function part(name, run) {
  try {
    results[name] = await run();
  } catch (error) {
    results[name] = { error: `${error.name}: ${error.message}` };
  }
  show();
}

let attn;
await part('attention', async () => {
  attn = await createAttention();
  const t = attn.trace(article);
  const q = t.queries.data;
  const y = attn.attention(q, t.keys.data, t.values.data, { qNumHeads: 1, headSize: 3, scale: 1 });
  // From the page's start: loading the module, compiling it, and the first call.
  const firstCallMs = performance.now();
  return { output: Array.from(t.outputs.data.subarray(0, 3)), y: Array.from(y), firstCallMs };
});

const q = Float32Array.from({ length: 4 * 256 * 32 }, (_, i) => Math.sin(i * 0.37));
const options = { qNumHeads: 4, headSize: 32, isCausal: true };
const sameAsOneThread = (y) => {
  const expected = attn.attention(q, q, q, options);
  return y.length === expected.length && y.every((value, i) => value === expected[i]);
};

await part('threads', async () => {
  // Wasm threads where the page is cross-origin isolated; one thread elsewhere.
  const auto = await createAttention({ threads: 'auto' });
  const result = { isolated: crossOriginIsolated, auto: auto.threads };
  result.autoSame = sameAsOneThread(auto.attention(q, q, q, options));
  auto.close();
  if (crossOriginIsolated) {
    const team = await createAttention({ threads: 2 });
    result.threads = team.threads;
    result.same = sameAsOneThread(team.attention(q, q, q, options));
    team.close();
  }
  return result;
});

await part('pool', async () => {
  const pool = await createAttentionPool({ workers: 2 });
  const y = await pool.attention(q, q, q, options);
  pool.close();
  return { workers: 2, same: sameAsOneThread(y) };
});

await part('trainer', async () => {
  const trainer = await createTrainer({ config: { ...INDUCTION_MODEL }, seed: 1 });
  const { step, loss } = await trainer.train({ steps: 800 });
  trainer.close();
  return { step, loss };
});

await part('trainerThreads', async () => {
  // Training on wasm threads where the page is cross-origin isolated: every step's loss the
  // same as on one thread, bit for bit.
  if (!crossOriginIsolated) return { isolated: false };
  const train = async (threads) => {
    const losses = [];
    const trainer = await createTrainer({
      config: { ...INDUCTION_MODEL },
      seed: 3,
      threads,
      onProgress: (event) => losses.push(...event.losses),
    });
    const { step } = await trainer.train({ steps: 60, progressEvery: 20 });
    trainer.close();
    return { threads: trainer.threads, step, losses };
  };
  const one = await train(1);
  const two = await train(2);
  const same = two.losses.length === 60 && two.losses.every((loss, i) => loss === one.losses[i]);
  return { threads: two.threads, step: two.step, same };
});

globalThis.appResult = results;

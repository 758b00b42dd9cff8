// The page side: start a module worker, send it work, show what comes back.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const out = document.getElementById('out');

// One request at a time, matched by id, so several can be in flight.
let nextId = 0;
const pending = new Map();
worker.addEventListener('message', ({ data }) => {
  const { resolve, reject } = pending.get(data.id);
  pending.delete(data.id);
  if (data.error) reject(new Error(data.error));
  else resolve(data.result);
});
worker.addEventListener('error', (event) => {
  out.textContent = `worker failed: ${event.message}`;
});
function call(method, args, transfer = []) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, method, args }, transfer);
  });
}

// 1. The article's example, every stage (trace).
const trace = await call('trace', {
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
});

// 2. Multi-head attention: 2 query heads sharing 1 kv head, 4 tokens, causal. The inputs are
// transferred to the worker (their buffers move; do not use q, k, v here afterwards).
const q = Float32Array.from({ length: 2 * 4 * 8 }, (_, i) => Math.sin(i));
const k = Float32Array.from({ length: 4 * 8 }, (_, i) => Math.cos(i));
const v = Float32Array.from({ length: 4 * 8 }, (_, i) => (i % 8) / 8);
const options = { qNumHeads: 2, kvNumHeads: 1, headSize: 8, isCausal: true };
const y = await call('attention', { q, k, v, options }, [q.buffer, k.buffer, v.buffer]);

const show = (array) => Array.from(array, (x) => x.toFixed(6)).join(', ');
out.textContent = [
  `output 1 of the article: ${show(trace.outputs.data.subarray(0, 3))}`,
  `multi-head y: Float32Array(${y.length}), first row ${show(y.subarray(0, 8))}`,
].join('\n');
globalThis.workerResult = { outputs: Array.from(trace.outputs.data), y: Array.from(y) };

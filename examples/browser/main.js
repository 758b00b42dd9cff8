// No bundler: import the module by URL. attention.mjs fetches attention.wasm from next to
// itself (through import.meta.url), so serve both from the same folder.
// With a bundler, `import createAttention from 'attention-explained'` (see ../bundler/).
import createAttention from '../../dist/attention.mjs';

const attn = await createAttention();
const t = attn.trace({
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
const outputs = Array.from(t.outputs.data);
// textContent, never innerHTML: numbers are shown as text.
document.getElementById('out').textContent = `SIMD128: ${attn.simd}\noutput 1: ${outputs
  .slice(0, 3)
  .map((x) => x.toFixed(6))
  .join(', ')}`;
globalThis.attentionResult = { simd: attn.simd, outputs };

// A browser app that bundles the package with esbuild. Build it from your app's folder:
//
//   npm install attention-explained
//   npx esbuild main.js --bundle --format=esm --loader:.wasm=file --outdir=public
//
// `--loader:.wasm=file` copies attention.wasm into public/ and turns the import below into its
// URL, which createAttention() is told about. (Alternatively copy
// node_modules/attention-explained/dist/attention.wasm next to the bundle yourself: the module
// looks for it beside the file that contains it.)
import createAttention from 'attention-explained';
import wasmUrl from 'attention-explained/attention.wasm';

const attn = await createAttention({ wasmUrl: new URL(wasmUrl, import.meta.url) });

// The article's example through the ONNX-style fast path: its queries, keys and values
// (x . wQuery, x . wKey, x . wValue) as one head; the article does not scale, so scale = 1.
const q = new Float32Array([1, 0, 2, 2, 2, 2, 2, 1, 3]);
const k = new Float32Array([0, 1, 1, 4, 4, 0, 2, 3, 1]);
const v = new Float32Array([1, 2, 3, 2, 8, 0, 2, 6, 3]);
const y = attn.attention(q, k, v, { qNumHeads: 1, headSize: 3, scale: 1 });

const out = document.getElementById('out');
out.textContent = `attention(): ${Array.from(y.subarray(0, 3), (x) => x.toFixed(6)).join(', ')}`;
globalThis.attentionResult = { simd: attn.simd, version: attn.version, y: Array.from(y) };

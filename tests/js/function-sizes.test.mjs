// No function of the built modules is too large to compile at its first call. Chromium compiles
// a wasm function lazily, on the page's thread, the first time it runs, and its baseline
// compiler's time grows faster than the function's size: trace()'s entry point, with every
// stage inlined into it by binaryen (76 KB of code), took 27-140 ms to compile while the page's
// first step waited, more than all the module's other first calls together (CMakeLists.txt's
// --one-caller-inline-max-function-size keeps such stages calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { eachCodeBody } from '../../scripts/lib/wasm-binary.mjs';

// The largest function a first call may have to compile (the decode kernel, 16 KB, is the
// largest a build holds on purpose).
const LIMIT_BYTES = 32 * 1024;
const MODULES = [
  'attention.wasm',
  'attention-relaxed.wasm',
  'attention-threads.wasm',
  'attention-threads-relaxed.wasm',
];

/** Each function body's size in bytes, in the code section's order. */
function functionSizes(bytes) {
  const sizes = [];
  eachCodeBody(bytes, 'function-sizes', (body, k) =>
    sizes.push({ body: k, bytes: body.end - body.pos }),
  );
  return sizes;
}

for (const name of MODULES) {
  test(`${name}: every function under ${LIMIT_BYTES / 1024} KB of code`, () => {
    const sizes = functionSizes(readFileSync(new URL(`../../dist/${name}`, import.meta.url)));
    assert.ok(sizes.length > 100, `${name}: ${sizes.length} functions read, expected the module's`);
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    assert.ok(
      largest.bytes <= LIMIT_BYTES,
      `${name}: the code section's function body ${largest.body} (function index: the imported functions + ${largest.body}) holds ${largest.bytes} bytes of code (at most ${LIMIT_BYTES})`,
    );
  });
}

// No function of the built modules is too large to compile at its first call. Chromium compiles
// a wasm function lazily, on the page's thread, the first time it runs, and its baseline
// compiler's time grows faster than the function's size: trace()'s entry point, with every
// stage inlined into it by binaryen (76 KB of code), took 27-140 ms to compile while the page's
// first step waited, more than all the module's other first calls together (CMakeLists.txt's
// --one-caller-inline-max-function-size keeps such stages calls).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// The largest function a first call may have to compile (the decode kernel, 16 KB, is the
// largest a build holds on purpose).
const LIMIT_BYTES = 32 * 1024;
const MODULES = [
  'attention.wasm',
  'attention-relaxed.wasm',
  'attention-threads.wasm',
  'attention-threads-relaxed.wasm',
];

/** Each defined function's index (imports counted first) and body size, from the binary. */
function functionSizes(bytes) {
  let at = 8; // after the magic number and the version
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const skipLimits = () => {
    const flags = leb();
    leb();
    if (flags & 1) leb();
  };
  let importedFunctions = 0;
  const sizes = [];
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 2) {
      // imports: module and field names, then the kind (0 function, 1 table, 2 memory, 3 global)
      for (let k = leb(); k > 0; k--) {
        at += leb();
        at += leb();
        const kind = bytes[at++];
        if (kind === 0) {
          leb();
          importedFunctions++;
        } else if (kind === 1) {
          at++; // element type
          skipLimits();
        } else if (kind === 2) skipLimits();
        else at += 2; // a global's type and mutability
      }
    } else if (id === 10) {
      for (let k = 0, count = leb(); k < count; k++) {
        const bodySize = leb();
        sizes.push({ index: importedFunctions + k, bytes: bodySize });
        at += bodySize;
      }
    }
    at = end;
  }
  return sizes;
}

for (const name of MODULES) {
  test(`${name}: every function under ${LIMIT_BYTES / 1024} KB of code`, () => {
    const sizes = functionSizes(readFileSync(new URL(`../../dist/${name}`, import.meta.url)));
    assert.ok(sizes.length > 100, `${name}: ${sizes.length} functions read, expected the module's`);
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    assert.ok(
      largest.bytes <= LIMIT_BYTES,
      `${name}: function ${largest.index} holds ${largest.bytes} bytes of code (at most ${LIMIT_BYTES})`,
    );
  });
}

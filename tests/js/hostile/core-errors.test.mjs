// The core's own errors, as the JS layer reports them (a module whose core gives a set answer).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';

import createAttentionModule from '../../../build/wasm/attention.mjs';
import { createAttentionWith } from '../../../src/js/module/api.mjs';
import { useInstance } from './checks.mjs';

useInstance();

describe("the core's own errors", () => {
  // The JS layer validates first, so the core refusing a shape cannot be provoked through the
  // API; a module whose core answers with a given message shows how each kind is reported.
  // The core answers attention() through the plain export attention_call_run: the address of
  // a NUL-terminated message, here written into wasm memory before the API wraps the module
  // (so it is part of what the module holds at load, not a leak of the call).
  async function withCoreAnswer(message) {
    const wasmBinary = readFileSync(new URL('../../../dist/attention.wasm', import.meta.url));
    return createAttentionWith(
      async (options) => {
        const Module = await createAttentionModule(options);
        const bytes = new TextEncoder().encode(message);
        const answer = Module._malloc(bytes.length + 1);
        Module.HEAPU8.set(bytes, answer);
        Module.HEAPU8[answer + bytes.length] = 0;
        return Object.create(Module, { _attention_call_run: { value: () => answer } });
      },
      { wasmBinary },
    );
  }
  const q = new Float32Array(4);
  const options = { qNumHeads: 1, headSize: 4 };

  test('a shape error is reported as it is, without a note about working memory', async () => {
    const own = await withCoreAnswer('attnMask.shape must have 1 to 4 dimensions');
    assert.throws(
      () => own.attention(q, q, q, options),
      (error) =>
        error instanceof RangeError &&
        error.message === 'attention: attnMask.shape must have 1 to 4 dimensions',
    );
    assert.equal(own.memoryStats().allocatedBytes, 0);
  });

  test('out of memory says how much working memory did not fit', async () => {
    const own = await withCoreAnswer("out of memory for the kernel's scratch");
    assert.throws(
      () => own.attention(q, q, q, options),
      (error) =>
        error instanceof RangeError && /KiB of working memory did not fit/.test(error.message),
    );
    assert.equal(own.memoryStats().allocatedBytes, 0);
  });
});

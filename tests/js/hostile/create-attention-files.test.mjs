// createAttention's own files, given wrong: wasmUrl and wasmBinary. A value of the wrong kind,
// or a path Node has no page to resolve against, is a TypeError naming the option; a file that
// is missing or is no WebAssembly module rejects with an Error naming what failed to load and
// why, in the module's words, not the glue's build advice. The right values, in each of their
// forms, load.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import createAttention from '../../../dist/attention.mjs';

const wasmFile = new URL('../../../dist/attention.wasm', import.meta.url);

/** Loads with `options`, runs one small call, closes: the module works. */
async function loadsAndRuns(options) {
  const attn = await createAttention(options);
  try {
    const ones = new Float32Array(4).fill(1);
    assert.deepEqual(
      [...attn.attention(ones, ones, ones, { qNumHeads: 1, headSize: 4 })],
      [1, 1, 1, 1],
    );
  } finally {
    attn.close();
  }
}

test('wasmUrl of the wrong kind, or a path in Node, is a TypeError naming wasmUrl', async () => {
  await assert.rejects(createAttention({ wasmUrl: 42 }), {
    name: 'TypeError',
    message: 'createAttention: wasmUrl must be a string or a URL, got number 42',
  });
  for (const path of ['attention.wasm', wasmFile.pathname, 'http://[bad']) {
    await assert.rejects(createAttention({ wasmUrl: path }), {
      name: 'TypeError',
      message: new RegExp(
        `^createAttention: wasmUrl must be a URL \\(in Node an absolute URL, for a file url\\.pathToFileURL\\(path\\)\\), got the string "${path.replace(/[[\]./]/g, '\\$&')}"$`,
      ),
    });
  }
});

test('a wasmUrl with no file behind it names the URL and why', async () => {
  const missing = new URL('nowhere/attention.wasm', wasmFile);
  await assert.rejects(createAttention({ wasmUrl: missing }), (error) => {
    assert.equal(error.name, 'Error');
    assert.match(
      error.message,
      new RegExp(
        `^createAttention: could not load the WebAssembly module from ${missing.href}: ENOENT`,
      ),
    );
    return true;
  });
});

test('wasmBinary that is not bytes is a TypeError; bytes that are no module say why', async () => {
  for (const [value, shown] of [
    ['attention.wasm', 'the string "attention.wasm"'],
    [new Float32Array(4), 'a Float32Array of length 4'],
    [[0, 97, 115, 109], 'an array'],
  ]) {
    await assert.rejects(createAttention({ wasmBinary: value }), {
      name: 'TypeError',
      message: `createAttention: options.wasmBinary must be the .wasm file's bytes, an ArrayBuffer or a Uint8Array, got ${shown}`,
    });
  }
  await assert.rejects(createAttention({ wasmBinary: new Uint8Array(3) }), (error) => {
    assert.match(
      error.message,
      /^createAttention: could not load the WebAssembly module: CompileError: WebAssembly\.instantiate\(\)/,
    );
    assert.doesNotMatch(error.message, /ASSERTIONS|Aborted/);
    return true;
  });
});

test('the right files load, in every form the options take', async () => {
  const bytes = readFileSync(wasmFile); // a Buffer, a Uint8Array of Node's
  await loadsAndRuns({ wasmBinary: bytes });
  await loadsAndRuns({ wasmBinary: new Uint8Array(bytes) });
  await loadsAndRuns({
    wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
  });
  await loadsAndRuns({ wasmUrl: pathToFileURL(wasmFile.pathname) });
  await loadsAndRuns({ wasmUrl: wasmFile.href });
});

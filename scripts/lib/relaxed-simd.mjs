// Rewrites a WebAssembly module's Relaxed SIMD multiply-adds from the proposal's prototype
// encoding to the final one, instruction by instruction:
//
//   f32x4.fma (prototype, what clang 14 emits for __builtin_wasm_fma_f32x4): 0xfd 0xaf 0x01
//   f32x4.relaxed_madd (final, what engines accept):                         0xfd 0x85 0x02
//
// Both take (a, b, c) from the stack and compute a * b + c, and both encodings are three bytes,
// so the rewrite changes no size or offset. It walks the code section as an engine does,
// decoding every instruction with its immediates, so the same bytes inside an immediate, a
// data segment or a custom section are left alone; anything it cannot decode (a malformed
// body, an opcode outside MVP, sign-extension, bulk memory, reference types, SIMD and the
// threads proposal's atomics) is an error, never a guess.
//
// Usage: node scripts/lib/relaxed-simd.mjs <in.wasm> <out.wasm>   (prints the count rewritten)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { eachCodeBody } from './wasm-binary.mjs';

const SIMD_PREFIX = 0xfd;
const PROTOTYPE_FMA = 0xaf; // f32x4.fma of the Relaxed SIMD prototype
const RELAXED_MADD = 0x105; // f32x4.relaxed_madd, final
const LAST_SIMD_OPCODE = 0x113; // i32x4.relaxed_dot_i8x16_i7x16_add_s, the last final opcode

const VALUE_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]); // i32 … v128, refs

function blockType(r) {
  const first = r.bytes[r.pos];
  if (first === 0x40 || VALUE_TYPES.has(first)) r.skip(1);
  else r.skipLeb(5); // a type index, as s33
}

function memarg(r) {
  const align = r.uleb();
  if (align & 0x40) r.uleb(); // multi-memory: a memory index follows
  r.skipLeb(10); // offset (u64 with memory64)
}

// The immediates after 0xfd <opcode>.
function simdImmediates(r, op) {
  if (op > LAST_SIMD_OPCODE) r.fail(`unknown SIMD opcode 0x${op.toString(16)}`);
  if (op <= 11 || op === 92 || op === 93)
    memarg(r); // v128 loads and store, load*_zero
  else if (op === 12 || op === 13)
    r.skip(16); // v128.const, i8x16.shuffle
  else if (op >= 21 && op <= 34)
    r.skip(1); // extract_lane / replace_lane: a lane index
  else if (op >= 84 && op <= 91) {
    memarg(r); // load*_lane / store*_lane
    r.skip(1);
  }
}

// The immediates after 0xfc <opcode>.
function miscImmediates(r, op) {
  if (op <= 7) return; // saturating truncations
  if (op === 8 || op === 10 || op === 12 || op === 14) {
    r.uleb(); // memory.init, memory.copy, table.init, table.copy: two indices
    r.uleb();
  } else if (op <= 17)
    r.uleb(); // data.drop, memory.fill, elem.drop, table.grow/size/fill
  else r.fail(`unknown 0xfc opcode ${op}`);
}

// The immediates after 0xfe <opcode> (the threads proposal): atomic.fence has one zero
// byte; every other atomic (notify, waits, loads, stores, read-modify-writes) a memarg.
function atomicImmediates(r, op) {
  if (op === 0x03) r.skip(1);
  else if (op <= 0x4e) memarg(r);
  else r.fail(`unknown 0xfe opcode ${op}`);
}

// Walks one function body's instructions; calls onPrototypeFma(offset) at each prototype fma,
// offset being that of its opcode's LEB128 after the prefix.
function walkBody(r, onPrototypeFma) {
  const groups = r.uleb();
  for (let i = 0; i < groups; i++) {
    r.uleb();
    if (!VALUE_TYPES.has(r.byte())) r.fail('unknown local type');
  }
  let depth = 1; // the body is a block closed by its final `end`
  while (depth > 0) {
    const op = r.byte();
    if (op === 0x02 || op === 0x03 || op === 0x04) {
      blockType(r);
      depth++;
    } else if (op === 0x0b) depth--;
    else if (op === 0x00 || op === 0x01 || op === 0x05 || op === 0x0f || op === 0x1a) continue;
    else if (op === 0x1b || op === 0xd1 || (op >= 0x45 && op <= 0xc4))
      continue; // numeric
    else if (op === 0x0c || op === 0x0d || op === 0x10 || op === 0xd2) r.uleb();
    else if (op >= 0x20 && op <= 0x26)
      r.uleb(); // locals, globals, table.get/set
    else if (op === 0x3f || op === 0x40)
      r.uleb(); // memory.size/grow: a memory index
    else if (op === 0x0e) {
      const targets = r.uleb();
      for (let i = 0; i <= targets; i++) r.uleb();
    } else if (op === 0x11) {
      r.uleb();
      r.uleb();
    } else if (op === 0x1c)
      r.skip(r.uleb()); // typed select: a vector of value types
    else if (op >= 0x28 && op <= 0x3e) memarg(r);
    else if (op === 0x41) r.skipLeb(5);
    else if (op === 0x42) r.skipLeb(10);
    else if (op === 0x43) r.skip(4);
    else if (op === 0x44) r.skip(8);
    else if (op === 0xd0)
      r.skip(1); // ref.null: a heap type
    else if (op === 0xfc) miscImmediates(r, r.uleb());
    else if (op === 0xfe) atomicImmediates(r, r.uleb());
    else if (op === SIMD_PREFIX) {
      const at = r.pos;
      const simdOp = r.uleb();
      if (simdOp === PROTOTYPE_FMA) onPrototypeFma(at);
      else simdImmediates(r, simdOp);
    } else r.fail(`unsupported opcode 0x${op.toString(16)}`);
  }
  if (r.pos !== r.end) r.fail('function body ends before its declared size');
}

/**
 * Returns a copy of `wasm` with every prototype f32x4.fma rewritten to f32x4.relaxed_madd,
 * and how many it rewrote.
 * @param {Uint8Array} wasm
 * @returns {{ wasm: Uint8Array, rewritten: number }}
 */
export function rewriteRelaxedMadd(wasm) {
  const out = new Uint8Array(wasm);
  let rewritten = 0;
  eachCodeBody(out, 'relaxed-simd', (body) =>
    walkBody(body, (at) => {
      // Minimal encoding only: the final opcode's LEB128 (0x85 0x02) must fit the same bytes.
      if (body.pos - at !== 2) body.fail('prototype fma opcode not in its 2-byte encoding');
      out[at] = 0x80 | (RELAXED_MADD & 0x7f);
      out[at + 1] = RELAXED_MADD >> 7;
      rewritten++;
    }),
  );
  return { wasm: out, rewritten };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node scripts/lib/relaxed-simd.mjs <in.wasm> <out.wasm>');
    process.exit(2);
  }
  const { wasm, rewritten } = rewriteRelaxedMadd(readFileSync(input));
  if (rewritten === 0) {
    console.error(`relaxed-simd: ${input} has no prototype f32x4.fma to rewrite`);
    process.exit(1);
  }
  writeFileSync(output, wasm);
  console.log(`relaxed-simd: ${rewritten} f32x4.fma -> f32x4.relaxed_madd in ${output}`);
}

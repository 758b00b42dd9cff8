// attn.onnxAttention(inputs, attributes, outputs): the whole ONNX `Attention` operator (opset
// 23, plus opset 24's nonpad_kv_seqlen and opset 25's left/right windows) with ONNX's own
// names, for apps that already hold onnxruntime-web tensors.
//
// Names: B batch, Hq / Hkv query / key-value heads, S query length, L new keys, P past keys,
// T = P + L every key, D query/key head size, Dv value head size.
//   Q  (B, Hq, S, D)  or 3-D (B, S, Hq*D)       K  (B, Hkv, L, D)  or 3-D (B, L, Hkv*D)
//   V  (B, Hkv, L, Dv) or 3-D (B, L, Hkv*Dv)    past_key (B, Hkv, P, D), past_value (B, Hkv, P, Dv)
//   attn_mask: bool or Q's float type, right-aligned against (B, Hq, S, T); its last dim may
//     be shorter than T (the missing keys are hidden)     nonpad_kv_seqlen (B,) int64
//   Y (B, Hq, S, Dv) or 3-D (B, S, Hq*Dv), Q's type    present_key (B, Hkv, T, D), K's type
//   present_value (B, Hkv, T, Dv), V's type              qk_matmul_output (B, Hq, S, T), Q's type
//
// The work is the fused kernel of attention(): Q, K and V are read where they lie (3-D or 4-D
// by strides, no transposing copy). With a past cache, the concatenation that present_*
// requires is built in wasm memory by the core (past rows, then the new ones, head by head)
// and the kernel reads it as K and V with the queries at offset P. float16 is widened while
// it is copied in and narrowed (round to nearest even) while results are copied out; the core
// is float32.
// Arguments are read exactly once (read-once.mjs): inputs, attributes and the outputs list.
// Shape rules: onnx-shapes.mjs; float16 in and out: onnx-tensors.mjs.
import { formatBytes, isOutOfMemory } from '../shared/checks.mjs';
import { withScale } from '../attention/attention-options.mjs';
import { BYTES_PER, plan, readCall } from './onnx-shapes.mjs';
import { readOut, tensorCopy, writeFloats } from './onnx-tensors.mjs';
import { bufferOf, measuredBytes, setBytes } from '../shared/read-once.mjs';

/** Elements of each buffer the call needs in wasm memory (all float32 but a bool mask). */
function bufferSizes(p) {
  const { B, Hq, Hkv, S, T, D, Dv } = p.sizes;
  return {
    q: p.Q.count,
    key: B * Hkv * T * D, // K, or present_key: the past and K concatenated
    value: B * Hkv * T * Dv,
    y: B * Hq * S * Dv,
    scores: p.wanted.has('qk_matmul_output') ? B * Hq * S * T : 0,
    mask: p.mask ? p.mask.count : 0,
    maskBytesPer: p.mask && p.mask.type === 'bool' ? 1 : 4,
    nonpad: p.nonpad ? B : 0,
    // With a cache, the past and new rows staged before the concatenation: present's size.
    staged: p.buildsPresent ? B * Hkv * T * (D + Dv) : 0,
  };
}

/** The core's AttentionCall (core-call.mjs) for plan `p`, addresses 0. */
function onnxCoreCall(coreCall, p) {
  const { B, Hq, Hkv, S, P, T, D, Dv } = p.sizes;
  const { mask } = p;
  const shape = {
    batch: B,
    qNumHeads: Hq,
    kvNumHeads: Hkv,
    qSeqLen: S,
    kvSeqLen: T,
    headSize: D,
    vHeadSize: Dv,
  };
  return coreCall(shape, withScale(p.attrs.options, D), {
    qLayout: p.layouts.q,
    // The concatenated cache is always written as (B, Hkv, T, size).
    kvLayout: p.buildsPresent ? 'bhsd' : p.layouts.kv,
    pastLength: P,
    mask: mask && { kind: mask.type === 'bool' ? 'boolean' : 'additive', dims: mask.dims },
    // ONNX: a mask shorter than T hides the keys beyond it.
    maskKeys: 'pad',
    scoresMode: p.attrs.mode,
  });
}

/**
 * Writes the inputs into the buffers `call` points at, converting to float32. With a cache,
 * present = concat(past, new) on the sequence axis, as (B, Hkv, T, size): the past and the new
 * rows enter wasm memory as they are (in `staged`), and the core moves them into place head by
 * head (concatPresent, the row copy its KvCache uses too).
 */
function copyInputs(Module, p, call, staged) {
  const { B, Hkv, L, P, D, Dv } = p.sizes;
  const heap = bufferOf(Module.HEAPU8); // after every allocation: they may replace it
  writeFloats(p.Q, 0, p.Q.count, heap, call.q);
  const concat = (past, next, size, address) => {
    if (past) writeFloats(past, 0, past.count, heap, staged[past.name]);
    writeFloats(next, 0, next.count, heap, staged[next.name]);
    const error = Module.concatPresent({
      past: past ? staged[past.name] : 0,
      next: staged[next.name],
      out: address,
      batch: B,
      heads: Hkv,
      pastRows: P,
      rows: L,
      size,
      nextLayout: Module.Layout[p.layouts.kv],
    });
    if (error) throw new RangeError(`onnxAttention: ${error}`);
  };
  if (p.buildsPresent) {
    concat(p.pastKey, p.K, D, call.k);
    concat(p.pastValue, p.V, Dv, call.v);
  } else {
    writeFloats(p.K, 0, p.K.count, heap, call.k);
    writeFloats(p.V, 0, p.V.count, heap, call.v);
  }
  if (p.mask && p.mask.type === 'bool') {
    const bytes = new Uint8Array(p.mask.view.buffer, p.mask.view.byteOffset, p.mask.count);
    setBytes(new Uint8Array(heap, call.mask, p.mask.count), bytes, 0);
  } else if (p.mask) {
    writeFloats(p.mask, 0, p.mask.count, heap, call.mask);
  }
  if (p.nonpad) setBytes(new Int32Array(heap, call.nonpadKvSeqlen, p.nonpad.length), p.nonpad, 0);
}

/** The outputs asked for, as fresh tensors in their inputs' types. */
function results(p, call, sizes, heap) {
  const { B, Hq, Hkv, S, T, D, Dv } = p.sizes;
  const result = {};
  if (p.wanted.has('Y')) {
    result.Y = readOut(heap, call.y, sizes.y, p.Q.type, p.yDims, p.Q.float16Array);
  }
  if (p.wanted.has('present_key')) {
    const keyDims = [B, Hkv, T, D];
    const valueDims = [B, Hkv, T, Dv];
    result.present_key = readOut(heap, call.k, sizes.key, p.K.type, keyDims, p.K.float16Array);
    result.present_value = readOut(
      heap,
      call.v,
      sizes.value,
      p.V.type,
      valueDims,
      p.V.float16Array,
    );
  }
  if (sizes.scores) {
    const dims = [B, Hq, S, T];
    result.qk_matmul_output = readOut(
      heap,
      call.scores,
      sizes.scores,
      p.Q.type,
      dims,
      p.Q.float16Array,
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The pool (pool.mjs) forwards a call to a worker: it reads and validates here, in the caller's
// thread, and posts copies of exactly what it checked.

/**
 * onnxAttention(inputs, attributes, outputs) read once and validated (the same TypeError /
 * RangeError as attn.onnxAttention), as a plain call for postMessage: `args` for
 * onnxAttention and the fresh buffers to transfer with them.
 */
export function snapshotOnnxCall(inputs, attributes, outputs) {
  const read = readCall(inputs, attributes, outputs);
  const p = plan(read);
  const tensors = {
    Q: p.Q,
    K: p.K,
    V: p.V,
    past_key: p.pastKey,
    past_value: p.pastValue,
    attn_mask: p.mask,
  };
  const plainInputs = {};
  for (const [name, t] of Object.entries(tensors)) if (t) plainInputs[name] = tensorCopy(t);
  if (p.nonpad) {
    plainInputs.nonpad_kv_seqlen = {
      type: 'int64',
      data: BigInt64Array.from(p.nonpad, (n) => BigInt(n)),
      dims: [p.nonpad.length],
    };
  }
  const plainAttributes = { ...read.attrs };
  const wanted = read.wanted === undefined ? undefined : [...read.wanted];
  const transfer = Object.values(plainInputs).map((t) => t.data.buffer);
  return { args: [plainInputs, plainAttributes, wanted], transfer };
}

/**
 * The `onnxAttention` method for one instantiated module. `withAllocations` and the memory
 * limit are wrapModule's (api.mjs), so every call frees what it allocated, even on error.
 */
export function createOnnxAttention({
  Module,
  withAllocations,
  coreCall,
  runAttentionCall,
  attentionWorkingBytes,
  checkFits,
}) {
  return function onnxAttention(inputs, attributes, outputs) {
    const p = plan(readCall(inputs, attributes, outputs)); // read, measure, validate
    const call = onnxCoreCall(coreCall, p);
    const sizes = bufferSizes(p);
    const dataBytes =
      (sizes.q + sizes.key + sizes.value + sizes.y + sizes.scores + sizes.nonpad + sizes.staged) *
        4 +
      sizes.mask * sizes.maskBytesPer;
    const what = `Q, K, V${p.pastKey ? ', the past' : ''}, Y${sizes.scores ? ', qk_matmul_output' : ''} (in float32)`;
    const kernelBytes = checkFits('onnxAttention', dataBytes, attentionWorkingBytes(call), what);
    return withAllocations('onnxAttention', (allocate) => {
      // Assert every byte count right before the copies (read-once.mjs): what was validated.
      for (const t of [p.Q, p.K, p.V, p.pastKey, p.pastValue, p.mask]) {
        if (t) measuredBytes(t.view, t.count * BYTES_PER[t.type], `${t.name}.data`);
      }
      // Allocate everything first: an allocation may grow (and so replace) the wasm memory.
      call.q = allocate(sizes.q * 4, 'Q');
      call.k = allocate(sizes.key * 4, p.buildsPresent ? 'present_key' : 'K');
      call.v = allocate(sizes.value * 4, p.buildsPresent ? 'present_value' : 'V');
      call.y = allocate(sizes.y * 4, 'Y');
      if (sizes.scores) call.scores = allocate(sizes.scores * 4, 'qk_matmul_output');
      if (sizes.mask) call.mask = allocate(sizes.mask * sizes.maskBytesPer, 'attn_mask');
      if (sizes.nonpad) call.nonpadKvSeqlen = allocate(sizes.nonpad * 4, 'nonpad_kv_seqlen');
      // The past and the new rows as given, before the core concatenates them (copyInputs).
      const staged = {};
      if (p.buildsPresent) {
        for (const t of [p.pastKey, p.K, p.pastValue, p.V]) {
          if (t) staged[t.name] = allocate(t.count * 4, `${t.name} (float32, staged)`);
        }
      }
      copyInputs(Module, p, call, staged);

      const error = runAttentionCall(call);
      if (error) {
        const memory = isOutOfMemory(error)
          ? ` (${formatBytes(kernelBytes)} of working memory did not fit next to the ${formatBytes(dataBytes)} of tensors)`
          : '';
        throw new RangeError(`onnxAttention: ${error}${memory}`);
      }
      return results(p, call, sizes, bufferOf(Module.HEAPU8));
    });
  };
}

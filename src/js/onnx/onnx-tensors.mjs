// onnxAttention's tensors in and out of float32: float16 is widened while it is copied into
// wasm memory and narrowed (round to nearest even) while results are copied out; the core is
// float32. And plain copies of measured tensors, for postMessage.
import { floatsToHalves, halvesToFloats } from '../shared/float16.mjs';
import { BYTES_PER } from './onnx-shapes.mjs';
import { bufferOf, measuredBytes, setBytes } from '../shared/read-once.mjs';

/** A view of `count` elements from element `start` of a measured float tensor, in place. */
function sourceView(t, start, count) {
  const Type = t.type === 'float16' ? Uint16Array : Float32Array;
  return new Type(t.view.buffer, t.view.byteOffset + start * BYTES_PER[t.type], count);
}

/** Writes `count` elements of `t` from `start`, widened to float32, at byte `address` of `heap`. */
export function writeFloats(t, start, count, heap, address) {
  const target = new Float32Array(heap, address, count);
  if (t.type === 'float32') setBytes(target, sourceView(t, start, count), 0);
  else halvesToFloats(sourceView(t, start, count), target);
}

/** A fresh output tensor of `type` ('float32' or 'float16') from `count` floats at `pointer`. */
export function readOut(heapBuffer, pointer, count, type, dims, asFloat16Array) {
  const floats = new Float32Array(heapBuffer, pointer, count);
  if (type === 'float32') {
    const data = new Float32Array(count);
    setBytes(data, floats, 0);
    return { type, data, dims };
  }
  const data =
    asFloat16Array && typeof globalThis.Float16Array === 'function'
      ? new globalThis.Float16Array(count)
      : new Uint16Array(count);
  floatsToHalves(floats, new Uint16Array(bufferOf(data), 0, count));
  return { type, data, dims };
}

// Captured at load; Float16Array only where the engine has it (then a tensor may use it).
const ARRAY_CONSTRUCTORS = {
  Float32Array,
  Uint16Array,
  Uint8Array,
  BigInt64Array,
  Float16Array: globalThis.Float16Array,
};

/** A fresh copy of a measured tensor's checked elements, as a plain { type, data, dims }. */
export function tensorCopy(t) {
  const bytes = new Uint8Array(
    measuredBytes(t.view, t.count * BYTES_PER[t.type], `${t.name}.data`),
  );
  return {
    type: t.type,
    data: new ARRAY_CONSTRUCTORS[t.view.type](bytes.buffer),
    dims: [...t.dims],
  };
}

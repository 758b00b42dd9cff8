// A trained model stored small: every parameter as IEEE half precision (float16), in the
// model's order, in one little-endian binary file, beside a JSON manifest that says what it is
// (scripts/train-snapshots.mjs writes both; the page's chapter 4 opens with them).
//
//   manifest: { format: 'attention-explained/text-snapshot@1', text, textCharacters, vocabSize,
//               task: { minCount, inputDropout } (the text task's options: the tokenizer is
//               createCharTokenizer(text, { minCount })), config, seed, batch, steps,
//               tensors: [[name, dims], ...], bytes, heldOutLoss, ... what the script measured }
//   bytes:    the tensors' numbers, float16, one after another in `tensors` order
//
// Half precision keeps 11 significant bits: the weights of a model this small lose nothing a
// reader of its loss would see (the manifest's heldOutLoss is measured after the rounding).
import { describe } from '../shared/checks.mjs';
import { floatsToHalves, halvesToFloats } from '../shared/float16.mjs';

export const SNAPSHOT_FORMAT = 'attention-explained/text-snapshot@1';

const countOf = (dims) => dims.reduce((a, b) => a * b, 1);

/**
 * A model's parameters ({ name: { data, dims } }, as parameters() gives them) as a snapshot:
 * { tensors: [[name, dims], ...], bytes: Uint8Array } (float16, little-endian).
 */
export function encodeSnapshot(parameters) {
  const tensors = Object.entries(parameters).map(([name, { dims }]) => [name, [...dims]]);
  const total = tensors.reduce((sum, [, dims]) => sum + countOf(dims), 0);
  const halves = new Uint16Array(total);
  let offset = 0;
  for (const [name, dims] of tensors) {
    const count = countOf(dims);
    floatsToHalves(parameters[name].data, halves.subarray(offset, offset + count));
    offset += count;
  }
  return { tensors, bytes: littleEndian(halves) };
}

/** Uint16 values as little-endian bytes, whatever the machine's order. */
function littleEndian(halves) {
  const bytes = new Uint8Array(halves.length * 2);
  const view = new DataView(bytes.buffer);
  halves.forEach((half, i) => view.setUint16(2 * i, half, true));
  return bytes;
}

/**
 * The parameters a snapshot holds, as Float32Arrays ({ name: { data, dims } }, what
 * loadParameters takes). `bytes`: an ArrayBuffer or Uint8Array of exactly the manifest's size.
 */
export function decodeSnapshot(manifest, bytes) {
  if (manifest === null || typeof manifest !== 'object' || manifest.format !== SNAPSHOT_FORMAT) {
    throw new TypeError(
      `decodeSnapshot: manifest must be a snapshot manifest (format '${SNAPSHOT_FORMAT}'), got ${describe(manifest?.format ?? manifest)}`,
    );
  }
  const view =
    bytes instanceof ArrayBuffer ? new DataView(bytes) : ArrayBuffer.isView(bytes) ? bytes : null;
  if (view === null) {
    throw new TypeError(
      `decodeSnapshot: bytes must be an ArrayBuffer or a Uint8Array, got ${describe(bytes)}`,
    );
  }
  const data = new DataView(view.buffer, view.byteOffset, view.byteLength);
  const total = manifest.tensors.reduce((sum, [, dims]) => sum + countOf(dims), 0);
  if (data.byteLength !== 2 * total) {
    throw new RangeError(
      `decodeSnapshot: the manifest's tensors hold ${total} numbers (${2 * total} bytes of float16), got ${data.byteLength} bytes`,
    );
  }
  const halves = new Uint16Array(total);
  for (let i = 0; i < total; i++) halves[i] = data.getUint16(2 * i, true);
  const parameters = {};
  let offset = 0;
  for (const [name, dims] of manifest.tensors) {
    const count = countOf(dims);
    const floats = new Float32Array(count);
    halvesToFloats(halves.subarray(offset, offset + count), floats);
    parameters[name] = { data: floats, dims: [...dims] };
    offset += count;
  }
  return parameters;
}

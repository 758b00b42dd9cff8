// A trained model in a link (`#…&trained=…`): the parameters file of training-export.mjs made
// small enough for a URL. Its bytes are
//   u32 little-endian  header length in bytes
//   header             UTF-8 JSON { settings, step, tensors: [[name, dims], …] }
//   data               every tensor's numbers as float16 (little-endian), in the header's order
// compressed with deflate-raw (CompressionStream) and written in base64url. float16 keeps
// about three significant digits: the trained heads and their predictions come through (a
// test checks the predictions); the float32 file is the exact copy. A trained model of the
// page's defaults (2 layers, 4 heads, RoPE) makes a link of about 24,000 characters, about
// 26,000 with learned positions: well under the 64 KB of URL every engine opens. A link is untrusted input: it is checked while it is read
// (length, characters, inflated size, header, every tensor's size) and then by
// readParameters() and the model's own loadParameters().
import { floatsToHalves, halvesToFloats } from 'attention-explained';
import { PARAMETERS_FORMAT, readParameters } from './training-export.mjs';

/** The longest `trained=` value the page writes or reads. */
export const MAX_LINK_LENGTH = 60_000;
/** The most bytes a link may inflate to (the largest model takes about 25 KB). */
const MAX_INFLATED_BYTES = 256 * 1024;

const refuse = (Kind, message) => {
  throw new Kind(`trained model link: ${message}`);
};

/** Bytes through a CompressionStream or DecompressionStream, stopping past `most` bytes. */
async function pipeBytes(bytes, stream, most = Infinity) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > most) {
      await reader.cancel();
      refuse(RangeError, `expected at most ${most} bytes inflated, got more`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) refuse(TypeError, 'expected base64url characters only');
  let binary;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    refuse(TypeError, `expected base64url text, got ${text.length} characters that do not decode`);
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const sizeOf = (dims) => dims.reduce((a, b) => a * b, 1);

/**
 * The link text (the value of `trained=`) for a trained model.
 * @param {{ settings, step: number, parameters: Record<string, { data, dims }> }} model
 */
export async function encodeParametersLink({ settings, step, parameters }) {
  const { positions, layers, heads, seed } = settings;
  const names = Object.keys(parameters);
  const tensors = names.map((name) => [name, Array.from(parameters[name].dims)]);
  const header = new TextEncoder().encode(
    JSON.stringify({ settings: { positions, layers, heads, seed }, step, tensors }),
  );
  const count = names.reduce((sum, name) => sum + parameters[name].data.length, 0);
  const bytes = new Uint8Array(4 + header.length + 2 * count);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, header.length, true);
  bytes.set(header, 4);
  let at = 4 + header.length;
  for (const name of names) {
    const halves = new Uint16Array(parameters[name].data.length);
    floatsToHalves(parameters[name].data, halves);
    for (const half of halves) {
      view.setUint16(at, half, true);
      at += 2;
    }
  }
  const text = toBase64Url(await pipeBytes(bytes, new CompressionStream('deflate-raw')));
  if (text.length > MAX_LINK_LENGTH)
    refuse(RangeError, `expected at most ${MAX_LINK_LENGTH} characters, got ${text.length}`);
  return text;
}

/**
 * A link's model: { settings, step, parameters } (each parameter { data: Float32Array, dims }).
 * Throws a TypeError or RangeError that names what is wrong (cut short, damaged, too large).
 */
export async function decodeParametersLink(text) {
  if (text.length > MAX_LINK_LENGTH)
    refuse(RangeError, `expected at most ${MAX_LINK_LENGTH} characters, got ${text.length}`);
  const packed = fromBase64Url(text);
  let bytes;
  try {
    bytes = await pipeBytes(packed, new DecompressionStream('deflate-raw'), MAX_INFLATED_BYTES);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    refuse(TypeError, 'the data is cut short or damaged (it does not inflate)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = bytes.length >= 4 ? view.getUint32(0, true) : Infinity;
  if (4 + headerLength > bytes.length) refuse(TypeError, 'the data is cut short (no header)');
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength)));
  } catch {
    refuse(TypeError, 'its header is not JSON');
  }
  const { tensors } = header ?? {};
  const wellFormed = (entry) =>
    Array.isArray(entry) &&
    typeof entry[0] === 'string' &&
    Array.isArray(entry[1]) &&
    entry[1].every((d) => Number.isInteger(d) && d > 0 && d <= 4096);
  if (!Array.isArray(tensors) || !tensors.every(wellFormed))
    refuse(TypeError, 'its header has no list of tensors [name, dims]');
  if (new Set(tensors.map(([name]) => name)).size !== tensors.length)
    refuse(TypeError, 'its header names a tensor twice');
  const count = tensors.reduce((sum, [, dims]) => sum + sizeOf(dims), 0);
  const dataBytes = bytes.length - 4 - headerLength;
  if (dataBytes !== 2 * count)
    refuse(RangeError, `expected ${2 * count} bytes of numbers, got ${dataBytes}`);
  let at = 4 + headerLength;
  // fromEntries: own properties whatever the names ("__proto__" too).
  const parameters = Object.fromEntries(
    tensors.map(([name, dims]) => {
      const halves = new Uint16Array(sizeOf(dims));
      for (let i = 0; i < halves.length; i++, at += 2) halves[i] = view.getUint16(at, true);
      const data = new Float32Array(halves.length);
      halvesToFloats(halves, data);
      return [name, { data, dims }];
    }),
  );
  return readParameters({ ...header, format: PARAMETERS_FORMAT, parameters });
}

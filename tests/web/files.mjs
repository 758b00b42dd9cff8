// Checks of exported files as bytes: a GIF walked block by block to its trailer (its frames
// counted), a PNG's signature and size.
import assert from 'node:assert/strict';

/** Walks a GIF's blocks (it must be well-formed to the trailer) and counts its frames. */
export function gifFrames(bytes) {
  assert.equal(bytes.subarray(0, 6).toString('latin1'), 'GIF89a', 'GIF header');
  const width = bytes.readUInt16LE(6);
  const height = bytes.readUInt16LE(8);
  let at = 13;
  if (bytes[10] & 0x80) at += 3 * 2 ** ((bytes[10] & 7) + 1);
  const skipSubBlocks = () => {
    while (bytes[at] !== 0) {
      assert.ok(at < bytes.length, 'GIF data ends inside a block');
      at += bytes[at] + 1;
    }
    at += 1;
  };
  let frames = 0;
  for (;;) {
    const kind = bytes[at];
    if (kind === 0x3b) break; // trailer
    if (kind === 0x21) {
      at += 2;
      skipSubBlocks();
    } else if (kind === 0x2c) {
      const packed = bytes[at + 9];
      at += 10;
      if (packed & 0x80) at += 3 * 2 ** ((packed & 7) + 1);
      at += 1; // LZW minimum code size
      skipSubBlocks();
      frames += 1;
    } else assert.fail(`unexpected GIF block 0x${kind?.toString(16)} at byte ${at}`);
  }
  assert.equal(at, bytes.length - 1, 'the trailer is the last byte');
  return { width, height, frames };
}

/** PNG signature and IHDR size. */
export function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

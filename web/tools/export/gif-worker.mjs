// The GIF encoder's worker (bundled with gifenc by web/build.mjs and started from a blob:
// URL): frames arrive one by one as RGBA pixels and are quantized to their own 128-colour
// palette and written at once, so the page never holds more than one frame's pixels. A frame
// after the first keeps the one before (dispose 1) and writes its unchanged pixels as the
// transparent index: most of a scene is still from one moment to the next, and long runs of
// one index are what LZW compresses best (the decoding stage's GIF: 2 MB before, a fraction now).
//   { type: 'frame', pixels: ArrayBuffer, width, height, delay }  -> { type: 'frame', count }
//   { type: 'finish' }                                            -> { type: 'done', bytes }
import { GIFEncoder, applyPalette, quantize } from 'gifenc';

let encoder = GIFEncoder();
let count = 0;
let previous = null; // the last frame's RGBA (frames are all one size)

/**
 * The frame's pixels that are the same as the last frame's: index TRANSPARENT, after the
 * frame's own 127 colours (a scene is a few flat colours and anti-aliased text: 128 entries
 * keep it legible with 7-bit codes, which LZW packs smaller than 8-bit ones).
 */
const TRANSPARENT = 127;
function maskUnchanged(indexed, rgba) {
  const same = new Uint32Array(rgba.buffer);
  const before = new Uint32Array(previous.buffer);
  for (let p = 0; p < same.length; p++) if (same[p] === before[p]) indexed[p] = TRANSPARENT;
}

self.onmessage = ({ data }) => {
  if (data.type === 'frame') {
    const rgba = new Uint8ClampedArray(data.pixels);
    const first = previous === null;
    // The frame's colours (pixels are mapped to these only), then the entry for "unchanged".
    const colours = quantize(rgba, TRANSPARENT);
    const indexed = applyPalette(rgba, colours);
    const palette = colours.slice(0, TRANSPARENT);
    while (palette.length <= TRANSPARENT) palette.push([255, 255, 255]);
    if (!first) maskUnchanged(indexed, rgba);
    // repeat: 0 loops for ever (written with the first frame), as the article's figures do.
    encoder.writeFrame(indexed, data.width, data.height, {
      palette,
      delay: data.delay,
      repeat: 0,
      ...(first ? {} : { transparent: true, transparentIndex: TRANSPARENT, dispose: 1 }),
    });
    previous = rgba;
    count += 1;
    self.postMessage({ type: 'frame', count });
  } else if (data.type === 'finish') {
    encoder.finish();
    const bytes = encoder.bytes();
    self.postMessage({ type: 'done', bytes }, [bytes.buffer]);
    encoder = GIFEncoder();
    count = 0;
    previous = null;
  }
};

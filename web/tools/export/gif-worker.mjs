// The GIF encoder's worker (bundled with gifenc by web/build.mjs and started from a blob:
// URL): frames arrive one by one as RGBA pixels and are quantized to their own 256-colour
// palette and written at once, so the page never holds more than one frame's pixels.
//   { type: 'frame', pixels: ArrayBuffer, width, height, delay }  -> { type: 'frame', count }
//   { type: 'finish' }                                            -> { type: 'done', bytes }
import { GIFEncoder, applyPalette, quantize } from 'gifenc';

let encoder = GIFEncoder();
let count = 0;

self.onmessage = ({ data }) => {
  if (data.type === 'frame') {
    const rgba = new Uint8ClampedArray(data.pixels);
    const palette = quantize(rgba, 256);
    const indexed = applyPalette(rgba, palette);
    // repeat: 0 loops for ever (written with the first frame), as the article's figures do.
    encoder.writeFrame(indexed, data.width, data.height, { palette, delay: data.delay, repeat: 0 });
    count += 1;
    self.postMessage({ type: 'frame', count });
  } else if (data.type === 'finish') {
    encoder.finish();
    const bytes = encoder.bytes();
    self.postMessage({ type: 'done', bytes }, [bytes.buffer]);
    encoder = GIFEncoder();
    count = 0;
  }
};

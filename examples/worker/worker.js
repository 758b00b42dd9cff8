// The worker side: load the module once, then answer { id, method, args } messages.
// A module worker (new Worker(url, { type: 'module' })) can import ES modules; attention.mjs
// finds attention.wasm next to itself. In your app, bundle this file as its own entry point
// and import from 'attention-explained' (see ../bundler/main.js for the .wasm).
import createAttention from '../../dist/attention.mjs';

const ready = createAttention();

self.addEventListener('message', async ({ data: { id, method, args } }) => {
  try {
    const attn = await ready;
    if (method === 'trace') {
      const t = attn.trace(args);
      // Every array in a trace is a fresh copy the worker owns: transfer them, no copying.
      const transfer = [t.queries, t.keys, t.values, t.scores, t.weights, t.weighted, t.outputs];
      self.postMessage(
        { id, result: t },
        transfer.map((m) => m.data.buffer),
      );
    } else if (method === 'attention') {
      const y = attn.attention(args.q, args.k, args.v, args.options);
      self.postMessage({ id, result: y }, [y.buffer]);
    } else {
      throw new TypeError(`unknown method ${method}`);
    }
  } catch (error) {
    // TypeError / RangeError from bad input: send the message; the instance keeps working.
    self.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
});

// What every worker-based part of the package shares (the attention pool, pool.mjs, and the
// trainer, trainer.mjs): starting a worker behind one small interface, the same code path for
// a Web Worker in a browser and a worker_thread in Node, and carrying errors across by name.
export const isNode =
  typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

// Node's built-ins by a name computed at run time, so browser bundlers leave them alone (a
// constant specifier gets folded into a static import by minifiers, and then resolved).
export const importNodeBuiltin = (name) => import(/* webpackIgnore: true */ `node:${name}`);

/**
 * Starts the module worker at `url`: { post, onMessage, onDeath, busy, terminate }. onDeath's
 * listener gets a phrase saying why ("it threw …", "it exited with code 1"); busy(false) lets
 * Node exit while the worker waits (browsers have no such notion).
 */
export async function spawnWorker(url) {
  if (isNode) {
    const { Worker } = await importNodeBuiltin('worker_threads');
    // No Node flags: those about the main script (-e, --input-type) make a worker fail, and
    // the worker needs none. V8's flags (--experimental-wasm-relaxed-simd) are per process:
    // they hold in every worker anyway.
    const worker = new Worker(url, { execArgv: [] });
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      onMessage: (listener) => worker.on('message', listener),
      onDeath: (listener) => {
        worker.on('error', (error) => listener(`it threw ${error?.message ?? error}`));
        worker.on('exit', (code) => listener(`it exited with code ${code}`));
      },
      busy: (busy) => (busy ? worker.ref() : worker.unref()), // idle workers keep Node alive no longer
      terminate: () => worker.terminate(),
    };
  }
  const worker = new Worker(url, { type: 'module' });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onDeath: (listener) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        listener(`it threw ${event.message || 'an error (its script may have failed to load)'}`);
      });
      worker.addEventListener('messageerror', () => listener('a message to it could not be read'));
    },
    busy: () => {},
    terminate: () => worker.terminate(),
  };
}

/** A worker's side of an error: { name, message }, keeping TypeError and RangeError by name. */
export function errorMessage(error) {
  const name = error instanceof TypeError || error instanceof RangeError ? error.name : 'Error';
  return { name, message: String(error?.message ?? error) };
}

/** The host's side: the error errorMessage() described, as the same kind of error. */
export function rebuildError(error) {
  // Whatever a worker sent (a script other than ours may send anything): never a TypeError
  // thrown here instead of the caller's error.
  const { name, message } = error !== null && typeof error === 'object' ? error : {};
  const text = typeof message === 'string' ? message : 'a worker failed without saying why';
  if (name === 'TypeError') return new TypeError(text);
  if (name === 'RangeError') return new RangeError(text);
  return new Error(text);
}

/** Every ArrayBuffer a message holds (a Float32Array, or { Y: { data }, … }), to transfer. */
export function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) buffersOf(item, found);
  }
  return found;
}

/** Calls listener(data) for each message this worker receives, in a Web Worker or in Node. */
export async function listenInWorker(listener) {
  if (isNode) {
    // Messages that arrive before the listener is attached wait in the port.
    const { parentPort } = await importNodeBuiltin('worker_threads');
    parentPort.on('message', (message) =>
      listener(message, (reply, transfer) => parentPort.postMessage(reply, transfer)),
    );
  } else {
    self.addEventListener('message', (event) =>
      listener(event.data, (reply, transfer) => self.postMessage(reply, transfer)),
    );
  }
}

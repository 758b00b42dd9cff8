// What every worker-based part of the package shares (the attention pool, pool.mjs, and the
// trainer, trainer.mjs): starting a worker behind one small interface, the same code path for
// a Web Worker in a browser and a worker_thread in Node, and carrying errors across by name.
export const isNode =
  typeof process === 'object' && process !== null && typeof process.versions?.node === 'string';

// Node's built-ins by a name computed at run time, so browser bundlers leave them alone (a
// constant specifier gets folded into a static import by minifiers, and then resolved).
export const importNodeBuiltin = (name) =>
  import(/* webpackIgnore: true */ /* @vite-ignore */ `node:${name}`);

/** How long whyNotLoaded waits for an answer. */
const PROBE_MS = 3000;

/**
 * Why the file at `url` could not be loaded as `kind` ('script': a worker's script;
 * 'wasm'), as far as fetching it again tells: "HTTP 404 Not Found", "served as text/html, not
 * JavaScript", a missing Cross-Origin-Embedder-Policy on a cross-origin isolated page's worker
 * script (the common slip: the page has it, its worker does not); '' when nothing is wrong
 * with the file itself (then the script threw as it started), or when it cannot be fetched
 * here. Settles within PROBE_MS.
 */
export async function whyNotLoaded(url, kind) {
  if (typeof fetch !== 'function') return '';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_MS);
  try {
    const response = await fetch(url, { signal: controller.signal, cache: 'no-store' });
    response.body?.cancel().catch(() => {});
    if (!response.ok) return `HTTP ${response.status} ${response.statusText}`.trim();
    if (kind !== 'script') return '';
    const type = response.headers.get('content-type') ?? '';
    if (!url.startsWith('data:') && !/javascript|ecmascript/i.test(type)) {
      return `served as ${type || 'a file of no type'}, not JavaScript`;
    }
    const embedder = response.headers.get('cross-origin-embedder-policy') ?? '';
    if (globalThis.crossOriginIsolated === true && !/require-corp|credentialless/.test(embedder)) {
      return 'served without Cross-Origin-Embedder-Policy: require-corp, which the scripts of a cross-origin isolated page’s workers need as much as the page';
    }
    return '';
  } catch (error) {
    return controller.signal.aborted ? '' : `fetching it failed: ${error?.message ?? error}`;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `start`, a function whose body is a literal
 *   new Worker(new URL('./name.mjs', import.meta.url), { type: 'module' })
 * (the form Vite, webpack and Rollup's worker plugins recognise: they bundle the script and
 * put their URL in place of ours), and returns { worker, url }: the worker and the URL it was
 * really started from, which nothing else tells once a bundler rewrote it, for the messages
 * that name a script that failed. The global Worker is a recording subclass only while
 * `start` runs.
 */
export function startWebWorker(start) {
  const NativeWorker = globalThis.Worker;
  let url = '';
  class RecordingWorker extends NativeWorker {
    constructor(scriptUrl, options) {
      url = String(scriptUrl);
      super(scriptUrl, options);
    }
  }
  try {
    globalThis.Worker = RecordingWorker;
  } catch {
    return { worker: start(), url: '(a worker script of attention-explained)' };
  }
  try {
    return { worker: start(), url };
  } finally {
    globalThis.Worker = NativeWorker;
  }
}

/**
 * The script `start` (a literal new Worker(new URL(…)), as for startWebWorker) names, as an
 * app's bundler rewrote it, and how it is started: { url, type }, an absolute URL and
 * 'module' or 'classic' (webpack makes its worker bundles classic scripts). Starts nothing:
 * the global Worker is a stand-in that only records, while `start` runs. For a worker whose
 * script must start in another thread than this one (the trainer's, for its helpers), where
 * the same literal could not be followed by a bundler. Null where Worker cannot be replaced.
 */
export function workerScriptOf(start) {
  const NativeWorker = globalThis.Worker;
  let script = null;
  class RecordingStandIn {
    constructor(scriptUrl, options) {
      const url = new URL(String(scriptUrl), globalThis.location?.href).href;
      script = { url, type: options?.type === 'module' ? 'module' : 'classic' };
    }
  }
  try {
    globalThis.Worker = RecordingStandIn;
  } catch {
    return null;
  }
  try {
    start();
    return script;
  } finally {
    globalThis.Worker = NativeWorker;
  }
}

/**
 * Starts the module worker at `url`: { post, onMessage, onDeath, busy, terminate }. onDeath's
 * listener gets a phrase saying why ("its script … did not load: HTTP 404", "it threw …", "it
 * exited with code 1"); busy(false) lets Node exit while the worker waits (browsers have no
 * such notion). In a browser, type 'classic' starts a classic worker instead: a page opened
 * from file:// cannot start module workers, not even from a blob: URL (Node's workers ignore
 * it). `started`, in a browser: a Worker already started (startWebWorker), `url` its URL.
 */
export async function spawnWorker(url, type = 'module', started = null) {
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
  return webWorkerEndpoint(started ?? new Worker(url, { type }), String(url));
}

/** spawnWorker's interface on a browser's Worker started from `url`. */
function webWorkerEndpoint(worker, url) {
  let heard = false; // a message came: its script loaded and ran
  worker.addEventListener('message', () => (heard = true));
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onDeath: (listener) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        if (event.message) return listener(`it threw ${event.message}`);
        if (heard) return listener('it threw an error');
        // A script that did not load fires an error with no message: fetching it again says
        // why, if the file itself is at fault.
        whyNotLoaded(url, 'script').then((why) =>
          listener(
            `its script ${url} did not load${why ? `: ${why}` : ' (or it failed as it started)'}`,
          ),
        );
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

/**
 * Calls listener(data) for each message this worker receives, in a Web Worker or in Node.
 * Not awaited by the worker scripts: a script with top-level await is one that Vite's default
 * worker build (an IIFE) refuses.
 */
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

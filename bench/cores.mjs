// The cores table of scripts/bench: ours on one thread, our pool with 1 and 2 workers, and
// onnxruntime-web with 1 and 2 threads, in Node and in headless Chromium. Not pinned: it is
// about using both cores. onnxruntime-web fixes its thread count at its first session, so
// each count runs in a process (Node) or a page (Chromium) of its own; ours runs in both, and
// every ratio compares contenders of the same interleaved rounds. The Chromium pages are
// served with COOP/COEP headers: onnxruntime-web uses threads only in a cross-origin
// isolated page (our pool needs no isolation; where it has it, as here, its workers share
// memory: pool-shared.mjs).
//   node bench/cores.mjs [--quick] --out build/bench/cores.json
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';

import { launchChromium } from '../scripts/lib/chromium.mjs';
import { startServer } from '../scripts/lib/serve.mjs';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } },
});
if (!args.out) throw new Error('usage: node bench/cores.mjs [--quick] --out FILE');
const log = (line) => process.stderr.write(`[bench cores] ${line}\n`);
const root = new URL('..', import.meta.url).pathname;
const ORT_THREADS = [1, 2];
const runs = [];

// Node: the Relaxed SIMD flag, so ours runs its best build there as in Chromium.
for (const threads of ORT_THREADS) {
  const out = path.join(path.dirname(args.out), `cores-node-${threads}.json`);
  log(`Node, onnxruntime-web at ${threads} thread(s)...`);
  const child = execFile(
    process.execPath,
    ['--experimental-wasm-relaxed-simd', path.join(root, 'bench/cores-node.mjs'),
      '--ort-threads', String(threads), '--out', out, ...(args.quick ? ['--quick'] : [])],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  ); // prettier-ignore
  child.stderr.pipe(process.stderr);
  await new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`)))),
  );
  runs.push(JSON.parse(await readFile(out, 'utf8')));
}

const { server, url } = await startServer({
  root,
  headers: {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  },
});
const profile = await mkdtemp(path.join(os.tmpdir(), 'attention-bench-cores-'));
let context;
try {
  context = await launchChromium({ profile });
  for (const ortThreads of ORT_THREADS) {
    log(`Chromium, onnxruntime-web at ${ortThreads} thread(s)...`);
    const page = await context.newPage();
    page.on('console', (message) => process.stderr.write(`${message.text()}\n`));
    await page.goto(new URL('bench/browser/index.html', url).href);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30_000 });
    const result = await page.evaluate((settings) => window.bench.cores(settings), {
      quick: args.quick,
      ortThreads,
    });
    result.environment.name = 'Chromium, headless';
    runs.push(result);
    await page.close();
  }
} finally {
  await context?.close();
  await rm(profile, { recursive: true, force: true });
  server.close();
}
await writeFile(args.out, JSON.stringify({ cpus: os.cpus().length, runs }, null, 1));

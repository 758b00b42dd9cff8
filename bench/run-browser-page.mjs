// Runs the benchmark page in headless Chromium (the system's /usr/bin/chromium, driven by
// playwright-core, started by scripts/lib/chromium.mjs) with a fresh profile, and writes the
// page's results as JSON.
//   node bench/run-browser-page.mjs --url http://127.0.0.1:PORT/ [--quick] --out build/bench/chromium.json
// Each of --out (the forward suite), --decode-out, --small-calls, --backward-out, --train-out and
// --text-out (the text section: bench/browser/text.mjs) runs its table and writes it there;
// --decode-only is --decode-out alone (without --out).
// scripts/bench starts it under `taskset -c 0`, so Chromium's processes inherit the pinning.
// --isolated serves the repository itself, cross-origin isolated (COOP/COEP headers, as
// bench/cores.mjs does), instead of --url: what --threads N (N > 1) needs, the training table
// with ours on the wasm threads build and tfjs on its threaded one.
//   node bench/run-browser-page.mjs --isolated --threads 2 [--quick] --train-out FILE
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { launchChromium } from '../scripts/lib/chromium.mjs';
import { startServer } from '../scripts/lib/serve.mjs';
import { hostCpu } from './common/host-cpu.mjs';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    isolated: { type: 'boolean', default: false },
    threads: { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string' },
    'decode-out': { type: 'string' },
    'decode-only': { type: 'boolean', default: false },
    'small-calls': { type: 'string' },
    'backward-out': { type: 'string' },
    'train-out': { type: 'string' },
    'text-out': { type: 'string' },
  },
});
const outputs = ['out', 'decode-out', 'small-calls', 'backward-out', 'train-out', 'text-out'];
if (!(args.url || args.isolated) || !outputs.some((name) => args[name]))
  throw new Error(
    'usage: node bench/run-browser-page.mjs (--url URL | --isolated) [--threads N] [--quick] [--out FILE] [--decode-out FILE] [--decode-only] [--small-calls FILE] [--backward-out FILE] [--train-out FILE] [--text-out FILE]',
  );
const threads = Number(args.threads);
if (!Number.isInteger(threads) || threads < 1) throw new Error('--threads must be a count');
if (threads > 1 && !args.isolated) throw new Error('--threads above 1 needs --isolated');
if (threads > 1 && outputs.some((name) => name !== 'train-out' && args[name])) {
  throw new Error("--threads is the training table's alone: pass --train-out only");
}

const profile = await mkdtemp(path.join(os.tmpdir(), 'attention-bench-chromium-'));
let context;
let server = null;
try {
  if (args.isolated) {
    const root = new URL('..', import.meta.url).pathname;
    const headers = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    };
    ({ server, url: args.url } = await startServer({ root, headers }));
  }
  context = await launchChromium({ profile });
  const page = context.pages()[0] ?? (await context.newPage());
  // The real versions (the user agent says 156.0.0.0 and nothing of V8): chrome://version.
  await page.goto('chrome://version');
  const about = await page.innerText('body');
  const chromiumVersion = /Chromium\s+([\d.]+)/.exec(about)?.[1] ?? '?';
  const v8Version = /V8\s+([\d.]+)/.exec(about)?.[1] ?? '?';

  page.on('console', (message) => process.stderr.write(`${message.text()}\n`));
  page.on('pageerror', (error) => process.stderr.write(`[bench chromium] page error: ${error}\n`));
  await page.goto(new URL('bench/browser/index.html', args.url).href);
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30_000 });
  const name = `Chromium ${chromiumVersion}, headless`;
  if (args['small-calls']) {
    const small = await page.evaluate((settings) => window.bench.smallCalls(settings), {
      quick: args.quick,
    });
    small.environment.name = name;
    await writeFile(args['small-calls'], JSON.stringify(small, null, 1));
  }
  if (args.out && !args['decode-only']) {
    const result = await page.evaluate((settings) => window.bench.run(settings), {
      quick: args.quick,
    });
    result.environment.name = name;
    result.environment.engine = `V8 ${v8Version}`;
    // The host's CPU, read here: the page cannot see its CPU's model.
    Object.assign(result.environment, hostCpu());
    await writeFile(args.out, JSON.stringify(result, null, 1));
  }
  if (args['decode-out']) {
    const decode = await page.evaluate((settings) => window.bench.runDecode(settings), {
      quick: args.quick,
    });
    decode.environment.name = name;
    await writeFile(args['decode-out'], JSON.stringify(decode, null, 1));
  }
  for (const [option, entry] of [
    ['backward-out', 'backward'],
    ['train-out', 'train'],
    ['text-out', 'text'],
  ]) {
    if (!args[option]) continue;
    const result = await page.evaluate(
      ([method, settings]) => window.bench[method](settings),
      [entry, entry === 'train' ? { quick: args.quick, threads } : { quick: args.quick }],
    );
    result.environment.name = name;
    await writeFile(args[option], JSON.stringify(result, null, 1));
  }
} finally {
  await context?.close();
  await rm(profile, { recursive: true, force: true });
  server?.close();
}

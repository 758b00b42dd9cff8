// createAttention({ threads }) under attack: a polluted Object.prototype, helpers whose script
// cannot load (a 404, a script served without the page's Cross-Origin-Embedder-Policy, one
// that never reports), close() while a call runs, 100 create/close cycles, and teams left
// unreachable without close(). Each failed before its fix: the glue's for-in crashed Node and
// left a page's promise pending for ever; a helper that could not load left it pending too,
// with nothing in the console; nothing ever ended a team's threads.
// Every wait is bounded, so a hang fails its test instead of hanging it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import createAttention from '../../../dist/attention.mjs';
import { launchChromium } from '../../../scripts/lib/chromium.mjs';
import { startServer } from '../../../scripts/lib/serve.mjs';

const entry = new URL('../../../dist/attention.mjs', import.meta.url).href;

/**
 * Runs `body` (an async function's body, with createAttention, q, options and liveThreads()
 * in scope) in a fresh Node process, so that what it pollutes or leaves running is its own;
 * resolves to the JSON it printed last.
 */
async function inNode(body, { timeout = 120_000 } = {}) {
  const script = `
    import createAttention from ${JSON.stringify(entry)};
    import { readFileSync } from 'node:fs';
    const liveThreads = () => Number(/Threads:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
    const q = Float32Array.from({ length: 2 * 300 * 16 }, (_, i) => Math.sin(i * 0.37));
    const options = { qNumHeads: 2, headSize: 16, isCausal: true };
    /** Until check() holds (collecting garbage between looks), for at most 10 s. */
    const settle = async (check) => {
      for (let i = 0; i < 100 && !check(); i++) {
        globalThis.gc?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify(result));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--input-type=module', '-e', script],
    { timeout },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

describe('threads in Node', () => {
  test('an enumerable Object.prototype property: the team loads and computes (the glue crashed Node)', async () => {
    const result = await inNode(`
      Object.prototype.polluted = 1; // eslint-disable-line no-extend-native
      Object.prototype.call = () => {}; // eslint-disable-line no-extend-native
      const one = await createAttention({ warmUp: false });
      const team = await createAttention({ threads: 2, warmUp: false });
      const expected = one.attention(q, q, q, options);
      const same = team.attention(q, q, q, options).every((x, i) => x === expected[i]);
      team.close();
      return { threads: team.threads, same };`);
    assert.deepEqual(result, { threads: 2, same: true });
  });

  test('100 create/close cycles: the threads and the memory are back where they were', async () => {
    const result = await inNode(`
      const cycle = async () => {
        const team = await createAttention({ threads: 2, warmUp: false });
        team.attention(q, q, q, options);
        team.close();
      };
      await cycle(); // what a first load starts for good (V8's, libuv's threads) is counted in
      const start = liveThreads();
      await settle(() => false);
      const before = { threads: liveThreads(), rss: process.memoryUsage().rss };
      for (let i = 0; i < 100; i++) await cycle();
      await settle(() => liveThreads() <= before.threads);
      return { before, after: { threads: liveThreads(), rss: process.memoryUsage().rss } };`);
    assert.equal(result.after.threads, result.before.threads, 'OS threads left behind');
    // Each team holds 16 MiB of shared memory and a wasm instance: 100 kept would be gigabytes.
    const grown = (result.after.rss - result.before.rss) / 2 ** 20;
    assert.ok(grown < 96, `the process grew by ${grown.toFixed(0)} MiB over 100 cycles`);
  });

  test('teams left unreachable without close(): their threads end once they are collected', async () => {
    const result = await inNode(`
      await (await createAttention({ warmUp: false })).attention(q, q, q, options);
      const before = liveThreads();
      // In a function of its own: its frame, and the last team in it, is gone after.
      const use = async () => {
        const team = await createAttention({ threads: 3, warmUp: false }); // never closed
        team.attention(q, q, q, options);
      };
      for (let i = 0; i < 4; i++) await use();
      const held = liveThreads();
      await settle(() => liveThreads() <= before);
      return { before, held, after: liveThreads() };`);
    assert.ok(
      result.held >= result.before + 8,
      `the teams ran ${result.held - result.before} threads`,
    );
    assert.equal(result.after, result.before, 'threads of unreachable teams left running');
  });

  test('close() while a call reads its arguments: that call finishes, later calls refuse, nothing hangs', async () => {
    const one = await createAttention({ warmUp: false });
    const team = await createAttention({ threads: 2, warmUp: false });
    const q = Float32Array.from({ length: 2 * 300 * 16 }, (_, i) => Math.sin(i * 0.37));
    const options = { qNumHeads: 2, headSize: 16 };
    const hostile = {
      ...options,
      get isCausal() {
        team.close(); // the helpers end before the call reaches the core
        return true;
      },
    };
    const y = team.attention(q, q, q, hostile);
    assert.deepEqual(y, one.attention(q, q, q, { ...options, isCausal: true }));
    assert.equal(team.closed, true);
    assert.throws(() => team.attention(q, q, q, options), {
      name: 'Error',
      message: /^attention: this module was closed \(close\(\)\); create another/,
    });
    assert.throws(() => team.memoryStats(), /memoryStats: this module was closed/);
    team.close(); // again: nothing to do
    team[Symbol.dispose]();
    // The one-thread module closes the same way.
    one[Symbol.dispose]();
    assert.throws(() => one.trace({ x: [[1]], wQuery: [[1]], wKey: [[1]], wValue: [[1]] }), {
      message: /^trace: this module was closed/,
    });
  });
});

// An isolated page's helpers, served badly on purpose: each setup's server, one browser.
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
const HELPER = '/dist/attention-threads.worker.mjs';
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('threads in a cross-origin isolated Chromium page', () => {
  let browser;
  const servers = [];
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    for (const server of servers) server.close();
  });

  /**
   * A page of a server started with `options` (startServer's, and `route`: how the page's
   * requests for the helper script are answered); runs fn(arg) there. `inspect(page)` runs
   * before the page closes.
   */
  async function inPage(options, fn, arg, { route, inspect } = {}) {
    const { server, url } = await startServer({ root, headers: ISOLATION, ...options });
    servers.push(server);
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      if (route) await page.route(`**${HELPER}`, route);
      await page.goto(`${url}tests/js/fixtures/empty.html`);
      const result = await page.evaluate(fn, arg);
      await inspect?.(page);
      return { result, problems };
    } finally {
      await page.close();
    }
  }

  /** createAttention({ threads: 2, initTimeout }) in the page: { ms, error } or { threads }. */
  async function loadTeam({ initTimeout = 10_000, pollute = false } = {}) {
    const started = performance.now();
    const { default: createAttention } = await import('/dist/attention.mjs');
    // eslint-disable-next-line no-extend-native
    if (pollute) Object.prototype.polluted = 1;
    const pending = new Promise((resolve) => setTimeout(() => resolve('pending'), initTimeout + 10_000));
    const outcome = await Promise.race([
      createAttention({ threads: 2, initTimeout }).then(
        (team) => ({ threads: team.threads, closed: (team.close(), true) }),
        (error) => ({ error: `${error.name}: ${error.message}` }),
      ),
      pending,
    ]);
    return { ms: performance.now() - started, outcome };
  } // prettier-ignore

  test('a polluted Object.prototype: the team loads (the page’s promise never settled)', async () => {
    const { result, problems } = await inPage({}, loadTeam, { pollute: true });
    assert.deepEqual(problems, []);
    assert.deepEqual(result.outcome, { threads: 2, closed: true });
  });

  test('a helper script that is not there: rejected at once, naming the script and the 404', async () => {
    const { result, problems } = await inPage({ block: [HELPER] }, loadTeam, {});
    assert.deepEqual(problems, []);
    assert.match(result.outcome.error, /^Error: createAttention: a helper thread of the threads build could not start: its script http:\/\/127\.0\.0\.1:\d+\/dist\/attention-threads\.worker\.mjs did not load \(HTTP 404 Not Found\)\. .*pass threads: 1/);
    assert.ok(result.ms < 5000, `${result.ms} ms`);
  }); // prettier-ignore

  test('a helper script served without the page’s Cross-Origin-Embedder-Policy: rejected, saying so', async () => {
    const headersFor = (path) =>
      path === HELPER ? { 'Cross-Origin-Opener-Policy': 'same-origin' } : ISOLATION;
    const { result, problems } = await inPage({ headersFor }, loadTeam, {});
    assert.deepEqual(problems, []);
    assert.match(result.outcome.error, /attention-threads\.worker\.mjs did not load \(served without Cross-Origin-Embedder-Policy: require-corp/);
    assert.ok(result.ms < 5000, `${result.ms} ms`);
  }); // prettier-ignore

  test('a helper that never reports: rejected when initTimeout runs out, naming its script', async () => {
    const silent = (route) =>
      route.fulfill({ contentType: 'text/javascript', headers: ISOLATION, body: '// silent\n' });
    const { result, problems } = await inPage({}, loadTeam, { initTimeout: 2000 }, { route: silent });
    assert.deepEqual(problems, []);
    assert.match(result.outcome.error, /^Error: createAttention: the threads build \(.*attention-threads(-relaxed)?\.wasm, 1 helper from .*\/dist\/attention-threads\.worker\.mjs\) did not load within 2000 ms \(initTimeout\)/);
    assert.ok(result.ms < 6000, `${result.ms} ms`);
  }); // prettier-ignore

  test('the pool’s and the trainer’s worker scripts not there: each rejects naming its script and the 404', async () => {
    const blocked = ['/dist/attention-worker.mjs', '/dist/train-worker.mjs'];
    const { result, problems } = await inPage({ block: blocked }, async () => {
      const { createAttentionPool, createTrainer } = await import('/dist/attention.mjs');
      const message = (promise) => promise.then(() => 'started', (error) => error.message);
      return Promise.all([
        message(createAttentionPool({ workers: 1, initTimeout: 10_000 })),
        message(createTrainer({ config: { vocabSize: 16, context: 25, dModel: 8, layers: 1, heads: 2 }, initTimeout: 10_000 })),
      ]);
    });
    assert.deepEqual(problems, []);
    assert.match(result[0], /^createAttentionPool: a worker failed to start: its script http:\/\/127\.0\.0\.1:\d+\/dist\/attention-worker\.mjs did not load: HTTP 404 Not Found; pass workerUrl/);
    assert.match(result[1], /its script http:\/\/127\.0\.0\.1:\d+\/dist\/train-worker\.mjs did not load: HTTP 404 Not Found/);
  }); // prettier-ignore

  test('30 create/close cycles: no helper Worker left', async () => {
    let left;
    const { result, problems } = await inPage(
      {},
      async () => {
        const { default: createAttention } = await import('/dist/attention.mjs');
        const q = new Float32Array(2 * 300 * 16).fill(0.5);
        for (let i = 0; i < 30; i++) {
          const team = await createAttention({ threads: 2, warmUp: false });
          team.attention(q, q, q, { qNumHeads: 2, headSize: 16 });
          team.close();
        }
        return 'done';
      },
      undefined,
      {
        inspect: async (page) => {
          for (let i = 0; i < 50 && page.workers().length > 0; i++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          left = page.workers().length;
        },
      },
    );
    assert.deepEqual(problems, []);
    assert.equal(result, 'done');
    assert.equal(left, 0, 'helper Workers left running');
  });
});

test('threads: a count or auto; anything else is refused by name before anything loads', async () => {
  await assert.rejects(createAttention({ threads: 'all' }), {
    name: 'TypeError',
    message: /options\.threads must be an integer from 1 to 64 or 'auto', got the string "all"/,
  });
  const auto = await createAttention({ threads: 'auto', warmUp: false });
  assert.ok(auto.threads >= 1 && auto.threads <= 8, `${auto.threads}`);
  auto.close();
});

// What the hostile suites check after each call, and the one instance each suite file checks
// (useInstance; a suite with its own instance uses assertRefuses):
// the error's kind and wording (names a broken argument; says how much when too big), the result
// against the float64 reference, and that nothing leaked. useInstance() registers the file's
// before/after hooks: after everything, the same instance still computes the article's example
// and holds no more memory than before.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';

import createAttention from '../../../dist/attention.mjs';
import * as article from '../article.mjs';
import { maxAbsDiff } from '../reference64.mjs';
import { seededRandom } from '../seeded-random.mjs';
import { tools } from './inputs.mjs';

export function show(value) {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return String(value);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.length})`;
  try {
    const text = JSON.stringify(value, (key, v) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
      return v;
    });
    return text === undefined ? String(value) : text.slice(0, 80);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

// An argument is named when it appears as a whole identifier: `q` in "q must hold" but not in
// "qSeqLen"; `attnMask` in "attnMask.shape[0]".
// The list of allowed keys in an "unknown option" message does not count as naming them.
export function namesOneOf(message, names) {
  const text = message.replace(/\(expected one of [^)]*\)/, '');
  return names.some((name) =>
    new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[$]/g, '\\$')}([^A-Za-z0-9_]|$)`).test(text),
  );
}
/** Whether `message` names `name` as a whole identifier (namesOneOf of one name). */
export const namesIt = (message, name) => namesOneOf(message, [name]);

/**
 * Asserts that `call` throws an `ErrorType` naming `name`, and that the instance `attn` holds
 * no more memory than `baseline` afterwards (a refused call leaks nothing): for suites that
 * bring their own instance.
 */
export function assertRefuses(attn, baseline, call, ErrorType, name) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.ok(namesIt(error.message, name), `"${error.message}" does not name ${name}`);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, baseline, 'leaked');
}

export const SAYS_SIZE = /\d(\.\d+)? ?(bytes|KiB|MiB|GiB|TiB)/;

/** Results equal where both are numbers; the same NaN / infinity pattern elsewhere. */
export function assertMatches(actual, expected, tolerance, label, { finiteOnly = false } = {}) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i];
    if (Number.isFinite(e)) {
      assert.ok(Math.abs(a - e) <= tolerance, `${label}[${i}]: got ${a}, expected ${e}`);
    } else if (!finiteOnly) {
      assert.ok(
        Object.is(a, e) || (Number.isNaN(a) && Number.isNaN(e)),
        `${label}[${i}]: got ${a}, expected ${e}`,
      );
    }
  }
}

function checkOutcome({ verdict, run, touched, label, checkResult }) {
  let result;
  let error;
  try {
    result = run();
  } catch (e) {
    error = e;
  }
  if (verdict.valid && !verdict.tooBig) {
    assert.equal(error, undefined, `${label}: a valid call threw ${error}`);
    checkResult(result);
    return 'returned';
  }
  assert.ok(error !== undefined, `${label}: an invalid call returned`);
  assert.ok(
    error instanceof TypeError || error instanceof RangeError,
    `${label}: threw ${error?.constructor?.name}: ${error?.message}`,
  );
  assert.ok(
    namesOneOf(error.message, touched),
    `${label}: "${error.message}" names none of ${touched.join(', ')}`,
  );
  if (verdict.tooBig) {
    assert.ok(error instanceof RangeError, `${label}: too big but ${error.constructor.name}`);
    assert.ok(SAYS_SIZE.test(error.message), `${label}: "${error.message}" does not say how much`);
    return 'too big';
  }
  return error.constructor.name;
}

export let attn;
export let baseline;

/** Registers the file's hooks: a fresh instance before, and after, no leak and no heap growth. */
export function useInstance() {
  before(async () => {
    attn = await createAttention();
    assertComputesTheArticle(); // warm-up: whatever the first call allocates for good
    baseline = attn.memoryStats();
  });
  after(() => {
    assertComputesTheArticle();
    const now = attn.memoryStats();
    assert.equal(now.allocatedBytes, baseline.allocatedBytes, 'allocatedBytes after the suite');
    assert.equal(now.wasmMemoryBytes, baseline.wasmMemoryBytes, 'the heap did not grow');
  });
}

export function assertComputesTheArticle() {
  const t = attn.trace(article.args);
  assert.ok(maxAbsDiff(t.outputs.data.subarray(0, 3), article.outputs.slice(0, 3)) < 1e-5);
}

export function mutateAndCheck(api, index, makeCall, mutations, judge, checkResult) {
  const seed = (api === 'attention' ? 0xa7700000 : 0x7ace0000) + index;
  const t = tools(seededRandom(seed));
  const call = makeCall(t);
  const applied = [];
  const count = t.pick([1, 1, 1, 2, 2, 3]);
  for (let m = 0; m < count; m++) applied.push(t.pick(mutations)(call, t));
  const touched = applied.flatMap((a) => a.names);
  const label = `${api} #${index} (seed 0x${seed.toString(16)}; ${applied.map((a) => a.what).join('; ')})`;
  const verdict = judge(call.args);
  if (process.env.HOSTILE_DEBUG === `${api}:${index}`)
    console.dir({ args: call.args, verdict }, { depth: 5 });
  const outcome = checkOutcome({
    verdict,
    run: () => attn[api](...call.args),
    touched,
    label,
    checkResult: (result) => checkResult(result, verdict, label),
  });
  assert.equal(attn.memoryStats().allocatedBytes, baseline.allocatedBytes, `${label}: leaked`);
  return outcome;
}

/** call() throws ErrorType naming `name` (a whole identifier) and leaks nothing. */
export function assertRefusesNaming(call, ErrorType, name, pattern = /./) {
  const before = attn.memoryStats().allocatedBytes;
  assert.throws(call, (error) => {
    assert.ok(error instanceof ErrorType, `${error.constructor.name}: ${error.message}`);
    assert.ok(namesIt(error.message, name), `"${error.message}" does not name ${name}`);
    assert.match(error.message, pattern);
    return true;
  });
  assert.equal(attn.memoryStats().allocatedBytes, before, 'leaked');
}

/** call() returns what the float64 reference says, reading its inputs as `expected`, no leak. */
export function assertComputes(call, expected, label) {
  const before = attn.memoryStats().allocatedBytes;
  const y = call();
  assertMatches(y, expected, 1e-5, label);
  assert.equal(attn.memoryStats().allocatedBytes, before, `${label}: leaked`);
}

// A Float32Array over a resizable buffer, and a function that shrinks that buffer to `bytes`.
export function resizable(values, { lengthTracking = true } = {}) {
  const buffer = new ArrayBuffer(values.length * 4, { maxByteLength: values.length * 4 });
  const array = lengthTracking
    ? new Float32Array(buffer)
    : new Float32Array(buffer, 0, values.length);
  array.set(values);
  return { array, shrink: (bytes) => buffer.resize(bytes) };
}

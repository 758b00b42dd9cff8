// The options record: how attention is computed, whatever the entry point. OPTION_FIELDS is its
// one list in JS: every option's name, which entry points take it, its default, its
// validation, and whether it depends on a query's position or head (the pool's split rule,
// pool-split.mjs). attention() and attentionBackward (attention-args.mjs), the pool, a cache's
// attend() (kv-cache.mjs), trace() (trace.mjs) and onnxAttention() all read the record with
// checkAttentionOptions, and core-call.mjs writes it into the core's AttentionOptions
// (src/attention/attention.hpp) where the module says its fields lie. A new option is an entry
// here, a field there and its effect in the score step (src/attention/kernels/score_step.hpp);
// docs/architecture.md lists every file it touches.
import { checkBoolean, checkFloat32, describe } from '../shared/checks.mjs';
import { measureTypedArray, measuredBytes, ownOr, setBytes } from '../shared/read-once.mjs';

const INT32_MAX = 0x7fffffff;

/** -1 (unbounded) or a window of 0 to 2^31 - 1 keys, or a TypeError / RangeError naming it. */
function checkWindow(value, name) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < -1 || value > INT32_MAX) {
    throw new RangeError(
      `${name} must be -1 (unbounded) or an integer from 0 to 2^31 - 1 (2147483647), got ${value}`,
    );
  }
  return value;
}

/**
 * ALiBi's option: true (the standard slopes), false (off), or a Float32Array of one slope per
 * query head (`how.qNumHeads`), each a finite float32; the slopes are copied once, read once.
 */
function checkAlibi(value, name, how) {
  if (value === true || value === false) return value;
  const measured = measureTypedArray(value, name);
  if (measured === null || measured.type !== 'Float32Array') {
    throw new TypeError(
      `${name} must be true (the standard slopes), false, or a Float32Array of one slope per query head, got ${describe(value)}`,
    );
  }
  const heads = ownOr(how, 'qNumHeads', measured.length);
  if (measured.length !== heads) {
    throw new RangeError(
      `${name} must hold one slope per query head (qNumHeads = ${heads}), got ${measured.length}`,
    );
  }
  const slopes = new Float32Array(heads);
  setBytes(new Uint8Array(slopes.buffer), measuredBytes(measured, heads * 4, name), 0);
  for (let h = 0; h < heads; h++) {
    if (!Number.isFinite(slopes[h])) {
      throw new RangeError(`${name}[${h}] must be a finite slope, got ${slopes[h]}`);
    }
  }
  return slopes;
}

/**
 * Each option of the record:
 *   name       its key, in the record and in the options bags of the entry points that take it
 *   takenBy    those entry points: 'attention' (attention(), attentionBackward, the pool),
 *              'attend' (KvCache.attend) and 'trace' (trace()); onnxAttention takes every one
 *              under ONNX's names
 *   dependsOn  the axes, of 'position' and 'head', by which what it does to a query row
 *              depends on the row (a call cut along one would change)
 *   fallback   its value when not given (`how`: checkAttentionOptions' second argument)
 *   check      the given value validated (a TypeError / RangeError naming it), as the core
 *              takes it
 *   active     whether a value does anything
 *   core       (optional) more fields of the core's record that follow from the value
 */
export const OPTION_FIELDS = Object.freeze([
  {
    name: 'scale',
    takenBy: ['attention', 'attend', 'trace'],
    dependsOn: [],
    // 1 / sqrt(headSize); without a head size it stays undefined (withScale resolves it).
    fallback: (how) => {
      const headSize = ownOr(how, 'headSize', undefined);
      return headSize === undefined ? undefined : 1 / Math.sqrt(headSize);
    },
    check: (value, name) => checkFloat32(value, name),
    active: () => true,
  },
  {
    name: 'isCausal',
    takenBy: ['attention', 'attend', 'trace'],
    dependsOn: ['position'],
    fallback: (how) => ownOr(how, 'isCausal', false),
    check: (value, name) => checkBoolean(value, name),
    active: (value) => value,
  },
  {
    name: 'softcap',
    takenBy: ['attention', 'attend', 'trace'],
    dependsOn: [],
    fallback: () => 0,
    check: (value, name) => {
      const softcap = checkFloat32(value, name);
      if (softcap < 0) throw new RangeError(`${name} must be 0 (off) or positive, got ${softcap}`);
      return softcap;
    },
    active: (value) => value > 0,
  },
  {
    name: 'leftWindow',
    takenBy: ['attend'],
    dependsOn: ['position'],
    fallback: () => -1,
    check: checkWindow,
    active: (value) => value >= 0,
  },
  {
    name: 'rightWindow',
    takenBy: [],
    dependsOn: ['position'],
    fallback: () => -1,
    check: checkWindow,
    active: (value) => value >= 0,
  },
  {
    // ALiBi (BLOOM, MPT): slope_h * (key position - query position) added to head h's scores.
    name: 'alibi',
    takenBy: ['attention', 'attend', 'trace'],
    dependsOn: ['head', 'position'],
    fallback: () => false,
    check: checkAlibi,
    active: (value) => value !== false,
    core: (value) => ({ alibiSlopes: typeof value === 'boolean' ? null : value }),
  },
]);

/** The option names an entry point takes ('attention', 'attend' or 'trace'), in OPTION_FIELDS' order. */
export const optionNames = (entry) =>
  OPTION_FIELDS.filter((field) => field.takenBy.includes(entry)).map((field) => field.name);

/**
 * The options record from values already read once (read-once.mjs), each validated with a
 * TypeError / RangeError naming it as the caller did (`how.names` maps a field to the caller's
 * name, e.g. leftWindow to 'left_window_size'). An undefined value takes its default
 * (`how.headSize` gives the scale's; without it an unset scale stays undefined, and withScale()
 * resolves it once the head size is known; `how.isCausal` the causal default); `how.qNumHeads`
 * is the count of per-head values (ALiBi's slopes).
 */
export function checkAttentionOptions(given, how = {}) {
  // Own properties only, of `how`, `names` and `given` alike: a polluted Object.prototype
  // must not rename an option, change a default or set one.
  const names = ownOr(how, 'names', {});
  const record = {};
  for (let i = 0; i < OPTION_FIELDS.length; i++) {
    const field = OPTION_FIELDS[i];
    const value = ownOr(given, field.name, undefined);
    record[field.name] =
      value === undefined
        ? field.fallback(how)
        : field.check(value, ownOr(names, field.name, field.name), how);
    if (field.core) Object.assign(record, field.core(record[field.name]));
  }
  return record;
}

/** The record with its scale resolved: 1 / sqrt(headSize) when it was left unset. */
export const withScale = (options, headSize) =>
  options.scale === undefined ? { ...options, scale: 1 / Math.sqrt(headSize) } : options;

/**
 * True when some option set in `record` acts on a query row by its `axis` ('position' or
 * 'head'): then a call cut along that axis is not the same call (pool-split.mjs).
 */
export function dependsOn(record, axis) {
  for (let i = 0; i < OPTION_FIELDS.length; i++) {
    const field = OPTION_FIELDS[i];
    if (field.dependsOn.includes(axis) && field.active(record[field.name])) return true;
  }
  return false;
}

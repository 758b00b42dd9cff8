// The options record: how attention is computed, whatever the entry point. One JS reader here,
// one C++ struct (attention::AttentionOptions, attention.hpp), one Embind value object
// (AttentionOptions, registered in src/bindings/bindings.cpp). attention(), the pool, a
// cache's attend() and onnxAttention() all hand the core this same record, so a new option is
// a field here, there and in the kernel that uses it.
//
// Field        default                  meaning
// scale        1 / sqrt(headSize)       multiplies q.k
// isCausal     false (attend(): true)   key j hidden from query i when j > i + offset
// softcap      0 (off)                  softcap * tanh(score / softcap)
// leftWindow   -1 (unbounded)           keys j < i + offset - leftWindow hidden
// rightWindow  -1 (unbounded)           keys j > i + offset + rightWindow hidden
import { checkBoolean, checkFloat32, describe } from './checks.mjs';
import { ownOr } from './read-once.mjs';

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
 * The options record from values already read once (read-once.mjs), each validated with a
 * TypeError / RangeError naming it as the caller did (`names` maps a field to the caller's
 * name, e.g. leftWindow to 'left_window_size'). An undefined value takes its default; without
 * `headSize` an unset scale stays undefined (withScale() resolves it once the head size is
 * known).
 */
export function checkAttentionOptions(given, how = {}) {
  // Own properties only, of `how`, `names` and `given` alike: a polluted Object.prototype
  // must not rename an option, change a default or set one.
  const headSize = ownOr(how, 'headSize', undefined);
  const names = ownOr(how, 'names', {});
  const nameOf = (field) => ownOr(names, field, field);
  const value = (field, fallback) => {
    const v = ownOr(given, field, undefined);
    return v === undefined ? fallback : v;
  };
  const scale =
    value('scale', undefined) === undefined && headSize === undefined
      ? undefined
      : checkFloat32(value('scale', 1 / Math.sqrt(headSize)), nameOf('scale'));
  const causal = checkBoolean(value('isCausal', ownOr(how, 'isCausal', false)), nameOf('isCausal'));
  const softcap = checkFloat32(value('softcap', 0), nameOf('softcap'));
  if (softcap < 0) {
    throw new RangeError(`${nameOf('softcap')} must be 0 (off) or positive, got ${softcap}`);
  }
  return {
    scale,
    isCausal: causal,
    softcap,
    leftWindow: checkWindow(value('leftWindow', -1), nameOf('leftWindow')),
    rightWindow: checkWindow(value('rightWindow', -1), nameOf('rightWindow')),
  };
}

/** The record with its scale resolved: 1 / sqrt(headSize) when it was left unset. */
export const withScale = (options, headSize) =>
  options.scale === undefined ? { ...options, scale: 1 / Math.sqrt(headSize) } : options;

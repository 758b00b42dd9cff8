// attn.attention(q, k, v, options): the arguments read, measured and validated once
// (attention-args.mjs, shared with the pool), copied into wasm memory, one call of the core,
// the output copied out into a fresh Float32Array (or the caller's `out`).
import { readAttentionArgs } from './attention-args.mjs';
import { formatBytes, isOutOfMemory } from '../shared/checks.mjs';
import { checkOutsideMemory } from '../shared/out-array.mjs';

/** The `attention` method for one module; `context` is wasm-context.mjs's. */
export function createAttentionRun(context) {
  const { Module, withAllocations, copyOutTo, coreCall, checkFits } = context;
  const { runAttentionCall, attentionWorkingBytes } = context;
  return function attention(q, k, v, options) {
    // Phases 1 to 3: read, measure, validate.
    const args = readAttentionArgs(q, k, v, options);
    const { mask, out } = args;
    const { q: qLength, k: kLength, v: vLength, y: yLength } = args.lengths;
    checkOutsideMemory(out, Module.HEAPU8);
    const dataBytes = (qLength + kLength + vLength + yLength) * 4 + (mask ? mask.bytes : 0);
    const call = coreCall(args, args.options, { mask });
    const kernelBytes = checkFits(
      'attention',
      dataBytes,
      attentionWorkingBytes(call),
      'q, k, v and the output',
    );
    return withAllocations('attention', (allocate, copyIn) => {
      // Phase 4, copy exactly what was validated.
      call.q = copyIn(args.q, qLength * 4, 'q');
      call.k = copyIn(args.k, kLength * 4, 'k');
      call.v = copyIn(args.v, vLength * 4, 'v');
      const py = allocate(yLength * 4, 'the output');
      call.y = py;
      if (mask) call.mask = copyIn(mask.data, mask.bytes, 'attnMask.data');
      const error = runAttentionCall(call);
      if (error && isOutOfMemory(error)) {
        throw new RangeError(
          `attention: ${error} (${formatBytes(kernelBytes)} of working memory did not fit next to the ${formatBytes(dataBytes)} of q, k, v and the output)`,
        );
      }
      if (error) throw new RangeError(`attention: ${error}`);
      return copyOutTo(out, py, yLength);
    });
  };
}

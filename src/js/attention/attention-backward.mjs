// attn.attentionBackward(q, k, v, gradY, options): the exact gradients of attn.attention.
// The arguments are read, measured and validated by attention()'s own reader
// (attention-args.mjs: same options, same rules, same wording), gradY is checked against y's
// shape, everything is copied into wasm memory once, one call of the core
// (src/bindings/attention_backward_call.hpp), and the three gradients are copied out into
// fresh Float32Arrays.
import { readAttentionArgs } from './attention-args.mjs';
import { describe, formatBytes, isOutOfMemory } from '../shared/checks.mjs';
import { measureTypedArray } from '../shared/read-once.mjs';

/**
 * readAttentionArgs, whose own errors begin "attention:": here the caller called
 * attentionBackward, so those say so (same class, the original as `cause`). Anything else,
 * such as an error a caller's getter throws, passes through untouched.
 */
function readArgs(q, k, v, options) {
  try {
    return readAttentionArgs(q, k, v, options);
  } catch (error) {
    const ours =
      (error instanceof TypeError || error instanceof RangeError) &&
      error.message.startsWith('attention:');
    if (!ours) throw error;
    const message = `attentionBackward:${error.message.slice('attention:'.length)}`;
    throw new error.constructor(message, { cause: error });
  }
}

/** gradY measured and checked: a Float32Array of y's length, or a TypeError / RangeError. */
function checkGradY(gradY, args) {
  const measured = measureTypedArray(gradY, 'gradY');
  if (measured === null || measured.type !== 'Float32Array') {
    throw new TypeError(`gradY must be a Float32Array, got ${describe(gradY)}`);
  }
  const { batch, qNumHeads, qSeqLen, vHeadSize } = args;
  if (measured.length !== args.lengths.y) {
    throw new RangeError(
      `gradY must hold batch * qNumHeads * qSeqLen * vHeadSize = ${batch}*${qNumHeads}*${qSeqLen}*${vHeadSize} = ${args.lengths.y} numbers (y's shape), got ${measured.length}`,
    );
  }
  return measured;
}

/** The `attentionBackward` method for one module. */
export function createAttentionBackward(context) {
  const { withAllocations, copyOut, coreCall, checkFits } = context;
  const { runAttentionBackward, attentionBackwardWorkingBytes } = context;
  return function attentionBackward(q, k, v, gradY, options) {
    // Phases 1 to 3: read, measure, validate (gradY is measured only: no caller code runs).
    const args = readArgs(q, k, v, options);
    if (args.out !== null) {
      throw new TypeError(
        'attentionBackward: options.out is not taken (the three gradients come back as fresh Float32Arrays)',
      );
    }
    const gradYm = checkGradY(gradY, args);
    const { mask } = args;
    const { q: qLength, k: kLength, v: vLength, y: yLength } = args.lengths;
    // q, k, v and their gradients, gradY, the mask.
    const dataBytes = (2 * (qLength + kLength + vLength) + yLength) * 4 + (mask ? mask.bytes : 0);
    // The forward's AttentionCall, as attention() builds it (core-call.mjs).
    const forward = coreCall(args, args.options, { mask });
    const call = { forward, gradY: 0, gradQ: 0, gradK: 0, gradV: 0 };
    const kernelBytes = checkFits(
      'attentionBackward',
      dataBytes,
      attentionBackwardWorkingBytes(forward),
      'q, k, v, gradY and the gradients',
    );
    return withAllocations('attentionBackward', (allocate, copyIn) => {
      // Phase 4, copy exactly what was validated.
      call.forward.q = copyIn(args.q, qLength * 4, 'q');
      call.forward.k = copyIn(args.k, kLength * 4, 'k');
      call.forward.v = copyIn(args.v, vLength * 4, 'v');
      if (mask) call.forward.mask = copyIn(mask.data, mask.bytes, 'attnMask.data');
      call.gradY = copyIn(gradYm, yLength * 4, 'gradY');
      call.gradQ = allocate(qLength * 4, 'gradQ');
      call.gradK = allocate(kLength * 4, 'gradK');
      call.gradV = allocate(vLength * 4, 'gradV');
      const error = runAttentionBackward(call);
      if (error && isOutOfMemory(error)) {
        throw new RangeError(
          `attentionBackward: ${error} (${formatBytes(kernelBytes)} of working memory did not fit next to the ${formatBytes(dataBytes)} of the tensors)`,
        );
      }
      if (error) throw new RangeError(`attentionBackward: ${error}`);
      return {
        gradQ: copyOut(call.gradQ, qLength),
        gradK: copyOut(call.gradK, kLength),
        gradV: copyOut(call.gradV, vLength),
      };
    });
  };
}

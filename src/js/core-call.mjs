// The core's attention call, as the JS layer makes it: the call record (AttentionCall, fields
// in src/bindings/attention_call.hpp) for a validated shape, and the two plain wasm exports
// that run it and size its working memory. Part of the context every entry point gets
// (wasm-context.mjs).
import { ownOr } from './read-once.mjs';

/** { coreCall, runAttentionCall, attentionWorkingBytes } for one instantiated module. */
export function createCoreCalls(Module) {
  /**
   * The core's AttentionCall (fields: src/bindings/attention_call.hpp) for a validated shape
   * and options record (attention-options.mjs), every address 0 for the caller to fill.
   * `mask` is { kind: 'boolean' | 'additive', dims } or null; the rest default to plain
   * attention(): 4-D layouts, no past, a broadcast mask, raw scores.
   */
  function coreCall(shape, options, more = {}) {
    // Own properties only: Object.prototype.pastLength must not become this call's.
    const qLayout = ownOr(more, 'qLayout', 'bhsd');
    const kvLayout = ownOr(more, 'kvLayout', 'bhsd');
    const pastLength = ownOr(more, 'pastLength', 0);
    const mask = ownOr(more, 'mask', null);
    const maskKeys = ownOr(more, 'maskKeys', 'broadcast');
    const scoresMode = ownOr(more, 'scoresMode', 'raw');
    // One object literal with every field: built as `{ ...dims, more fields }`, the record
    // cost V8 (Node 20) most of a small call's fixed cost (a 1-token attention() call took
    // 27 µs, now 3 µs).
    return {
      q: 0,
      k: 0,
      v: 0,
      y: 0,
      batch: shape.batch,
      qNumHeads: shape.qNumHeads,
      kvNumHeads: shape.kvNumHeads,
      qSeqLen: shape.qSeqLen,
      kvSeqLen: shape.kvSeqLen,
      headSize: shape.headSize,
      vHeadSize: shape.vHeadSize,
      qLayout: Module.Layout[qLayout],
      kvLayout: Module.Layout[kvLayout],
      options,
      pastLength,
      nonpadKvSeqlen: 0,
      maskKind: Module.MaskKind[mask ? mask.kind : 'none'],
      mask: 0,
      maskDims: [0, 1, 2, 3].map((i) => (mask ? (mask.dims[i] ?? 0) : 0)),
      maskRank: mask ? mask.dims.length : 0,
      maskKeys: Module.MaskKeys[maskKeys],
      scores: 0,
      scoresMode: Module.ScoresMode[scoresMode],
    };
  }

  /**
   * Runs a core call record (coreCall's, addresses filled in): '' on success, else the core's
   * message. Through the plain wasm export, not Embind's runAttention: the same entry point
   * without converting the record (attention_call.hpp says why).
   */
  function runAttentionCall(call) {
    const { options, maskDims } = call;
    const message = Module._attention_call_run(
      call.q,
      call.k,
      call.v,
      call.y,
      call.batch,
      call.qNumHeads,
      call.kvNumHeads,
      call.qSeqLen,
      call.kvSeqLen,
      call.headSize,
      call.vHeadSize,
      call.qLayout.value,
      call.kvLayout.value,
      options.scale,
      options.isCausal,
      options.softcap,
      options.leftWindow,
      options.rightWindow,
      call.pastLength,
      call.nonpadKvSeqlen,
      call.maskKind.value,
      call.mask,
      maskDims[0],
      maskDims[1],
      maskDims[2],
      maskDims[3],
      call.maskRank,
      call.maskKeys.value,
      call.scores,
      call.scoresMode.value,
    );
    return message === 0 ? '' : Module.UTF8ToString(message);
  }

  /** The core's working bytes for a call record's shape (Embind's attentionWorkingBytes). */
  const attentionWorkingBytes = (call) =>
    Module._attention_call_working_bytes(
      call.batch,
      call.qNumHeads,
      call.kvNumHeads,
      call.qSeqLen,
      call.kvSeqLen,
      call.headSize,
      call.vHeadSize,
    );

  return { coreCall, runAttentionCall, attentionWorkingBytes };
}

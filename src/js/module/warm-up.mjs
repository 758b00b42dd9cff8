// One small attention() call as a module is created, so that its first large call runs
// optimised code.
//
// V8 (Node, Chromium) starts every wasm function in its baseline compiler and moves one to
// its optimising tier in the background once it has run a while; a call already running stays
// where it started. The fused kernel calls its per-key-block step as a function of its own
// (kernels/flash_attention.cpp), so the step is optimised as soon as its compile is done; this
// call starts that compile at load time, and an app whose first real call comes a moment
// later finds it done. N = 256 at head size 64 (about 5 ms in the baseline tier) runs enough
// tiles for V8 to start it (measured: after N = 128 the first N = 1024 call still ran slow).
// Zeros are valid inputs: the output is discarded, and the call allocates nothing that
// outlives it.
const N = 256;
const HEAD_SIZE = 64;

/**
 * Runs the warm-up call `calls` times through `attention` (the module's attn.attention). It is
 * only for speed: should the call be refused (a module that cannot spare the memory, or one
 * whose core gives a set answer, as a test builds), creating the module goes on all the same,
 * and the refused call has freed what it allocated. More calls give the background compile
 * time to finish before a first large call that comes at once (a pool's worker, whose first
 * call follows its "ready").
 */
export function warmUp(attention, calls = 1) {
  const x = new Float32Array(N * HEAD_SIZE);
  try {
    for (let i = 0; i < calls; i++) {
      attention(x, x, x, { batch: 1, qNumHeads: 1, headSize: HEAD_SIZE, qSeqLen: N, kvSeqLen: N });
    }
  } catch {
    // Nothing to undo: every refused call leaves the module as it was.
  }
}

// Multi-head attention with ONNX `Attention` semantics: a batch of 2 sequences of 5 tokens,
// 4 query heads sharing 2 key/value heads (grouped-query attention), a causal mask, and a
// padding mask that hides the last two tokens of the second sequence.
//   node examples/node/multi-head.mjs
import createAttention from 'attention-explained';

const attn = await createAttention();
const batch = 2;
const qNumHeads = 4;
const kvNumHeads = 2; // each kv head serves qNumHeads / kvNumHeads = 2 query heads
const seqLen = 5;
const headSize = 8;

// Layouts, row-major: q [batch, qNumHeads, seqLen, headSize], k and v [batch, kvNumHeads,
// seqLen, headSize]. Random numbers stand in for a model's projections.
const random = (length) => Float32Array.from({ length }, () => Math.random() * 2 - 1);
const q = random(batch * qNumHeads * seqLen * headSize);
const k = random(batch * kvNumHeads * seqLen * headSize);
const v = random(batch * kvNumHeads * seqLen * headSize);

// A boolean mask (1 = may attend) of shape [batch, 1, 1, seqLen]: it broadcasts over heads and
// query positions to [batch, qNumHeads, seqLen, seqLen].
const padding = new Uint8Array([
  1,
  1,
  1,
  1,
  1, // sequence 0: five real tokens
  1,
  1,
  1,
  0,
  0, // sequence 1: three real tokens, two padding
]);

const y = attn.attention(q, k, v, {
  batch,
  qNumHeads,
  kvNumHeads,
  headSize,
  isCausal: true, // token i sees tokens 0..i
  attnMask: { data: padding, shape: [batch, 1, 1, seqLen] },
  // scale defaults to 1 / sqrt(headSize); qSeqLen and kvSeqLen are inferred from the lengths
});

// y: [batch, qNumHeads, seqLen, headSize], a fresh Float32Array you own.
const at = (b, h, i) => {
  const start = ((b * qNumHeads + h) * seqLen + i) * headSize;
  return y.subarray(start, start + headSize);
};
console.log('y has', y.length, 'numbers =', [batch, qNumHeads, seqLen, headSize].join(' x '));
console.log(
  'sequence 1, head 3, token 4:',
  Array.from(at(1, 3, 4), (x) => +x.toFixed(4)),
);

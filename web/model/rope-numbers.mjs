// Chapter 3, stage "Order": RoPE on the reader's queries and keys. RoPE turns each pair of a
// query's (and key's) numbers by an angle proportional to the token's position m, m·θ; the
// dot product of a query turned by m·θ and a key turned by n·θ depends only on (n − m)·θ, so
// scores depend on the distance between tokens. The page turns the first pair (columns 1 and
// 2, θ = 1 radian per position: the pair of highest frequency) with onnxRotaryEmbedding and
// leaves the other columns as they are (as rotary_embedding_dim does); scores come from
// onnxAttention's qk_matmul_output.
import { rowOf } from './matrix.mjs';

/** Positions drawn in the 2-D picture and the distances the table lists. */
export const ROPE_POSITIONS = 6;
export const DISTANCES = [0, 1, 2, 3, 4];
/** Two starting positions for the query: the same distance gives the same score from both. */
export const STARTS = [0, 3];

/** One pair turned to each position, through onnxRotaryEmbedding: [position][2]. */
function turnedPairs(attn, pair, positions, caches) {
  const S = positions.length;
  const { output } = attn.onnxRotaryEmbedding({
    input: {
      type: 'float32',
      data: Float32Array.from(positions.flatMap(() => pair)),
      dims: [1, 1, S, 2],
    },
    ...caches,
    position_ids: { type: 'int64', data: BigInt64Array.from(positions.map(BigInt)), dims: [1, S] },
  });
  return positions.map((_, s) => [output.data[2 * s], output.data[2 * s + 1]]);
}

/**
 * @param attn the API from createAttention()
 * @param queries, keys trace()'s n x d_k (chapter 1's example, unscaled)
 * @param {number} query, key  the two tokens compared (query 1 and key 2 by default)
 * @returns null when d_k < 2 (no pair to turn), else {
 *   query, key, qPair, kPair: the untouched pairs, qTurned[m], kTurned[m]: at position m,
 *   plainScore: q·k without positions,
 *   scores[s][d]: the score of the query at STARTS[s] and the key at STARTS[s] + DISTANCES[d] }
 */
export function computeRopeNumbers(attn, queries, keys, query = 0, key = 1) {
  const dK = queries.cols;
  if (dK < 2 || queries.rows < 2) return null;
  const q = rowOf(queries, query);
  const k = rowOf(keys, key);
  const last = Math.max(ROPE_POSITIONS, Math.max(...STARTS) + Math.max(...DISTANCES) + 1);
  const caches = attn.rotaryCaches({ length: last, rotaryDim: 2 });
  const positions = Array.from({ length: last }, (_, m) => m);
  const qTurned = turnedPairs(attn, q.slice(0, 2), positions, caches);
  const kTurned = turnedPairs(attn, k.slice(0, 2), positions, caches);
  const full = (pair, vector) => [...pair, ...vector.slice(2)];
  const scoreRow = (start) => {
    const L = DISTANCES.length;
    const { qk_matmul_output: scores } = attn.onnxAttention(
      {
        Q: { data: Float32Array.from(full(qTurned[start], q)), dims: [1, 1, 1, dK] },
        K: {
          data: Float32Array.from(DISTANCES.flatMap((d) => full(kTurned[start + d], k))),
          dims: [1, 1, L, dK],
        },
        V: { data: new Float32Array(L), dims: [1, 1, L, 1] },
      },
      { scale: 1 },
      ['qk_matmul_output'],
    );
    return Array.from(scores.data);
  };
  const plain = attn.onnxAttention(
    {
      Q: { data: Float32Array.from(q), dims: [1, 1, 1, dK] },
      K: { data: Float32Array.from(k), dims: [1, 1, 1, dK] },
      V: { data: new Float32Array(1), dims: [1, 1, 1, 1] },
    },
    { scale: 1 },
    ['qk_matmul_output'],
  );
  return {
    query,
    key,
    qPair: q.slice(0, 2),
    kPair: k.slice(0, 2),
    qTurned: qTurned.slice(0, ROPE_POSITIONS),
    kTurned: kTurned.slice(0, ROPE_POSITIONS),
    plainScore: plain.qk_matmul_output.data[0],
    scores: STARTS.map(scoreRow),
  };
}

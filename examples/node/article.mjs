// The article's example in Node: three tokens, three 4 x 3 weight matrices, every stage.
//   node examples/node/article.mjs
// (Inside this repo 'attention-explained' resolves to the package itself through its
// "exports"; in your app it comes from `npm install`.)
import createAttention from 'attention-explained';

const attn = await createAttention();
const t = attn.trace({
  x: [
    [1, 0, 1, 0],
    [0, 2, 0, 2],
    [1, 1, 1, 1],
  ],
  wQuery: [
    [1, 0, 1],
    [1, 0, 0],
    [0, 0, 1],
    [0, 1, 1],
  ],
  wKey: [
    [0, 0, 1],
    [1, 1, 0],
    [0, 1, 0],
    [1, 1, 0],
  ],
  wValue: [
    [0, 2, 0],
    [0, 3, 0],
    [1, 0, 3],
    [1, 1, 0],
  ],
});
// Matrices are { rows, cols, data: Float32Array }, row-major.
const row = (m, i) =>
  Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), (x) => +x.toFixed(6));
console.log('scores of input 1 :', row(t.scores, 0)); // [2, 4, 4]
console.log('softmax of input 1:', row(t.weights, 0)); // [0.063379, 0.468311, 0.468311]
console.log('output 1          :', row(t.outputs, 0)); // [1.936621, 6.683105, 1.595068]

// The one sentence on why the article's rounded numbers differ from the exact ones, with the
// numbers of the query at hand. Shown in both roundings, so the reader sees the other side.
import { formatVector } from '../format.mjs';

export function roundingNote({ figures, tr }, i) {
  const { n, dV } = figures.dims;
  const weights = (view) =>
    formatVector(
      Array.from({ length: n }, (_, j) => view.weight(i, j)),
      view.format,
    );
  const output = (view) =>
    formatVector(
      Array.from({ length: dV }, (_, c) => view.output(i, c)),
      view.format,
    );
  return {
    kind: 'rounding',
    text: tr('note.rounding', {
      i: i + 1,
      exactWeights: weights(figures.exact),
      articleWeights: weights(figures.article),
      exactOutput: output(figures.exact),
      articleOutput: output(figures.article),
    }),
  };
}

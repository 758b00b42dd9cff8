// The one sentence on why the article's rounded numbers differ from the exact ones, with the
// numbers of the query at hand. Shown in both roundings, so the reader sees the other side,
// but only for the article's own example, unscaled and unmasked: the article says nothing
// about other numbers.
import { formatVector } from '../format.mjs';

export function roundingNote({ numbers, tr }, i) {
  const { settings } = numbers;
  if (!numbers.isArticleExample || settings.scaled || settings.causal) return [];
  const { n, dV } = numbers.dims;
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
  return [
    {
      kind: 'rounding',
      text: tr('note.rounding', {
        i: i + 1,
        exactWeights: weights(numbers.exact),
        articleWeights: weights(numbers.article),
        exactOutput: output(numbers.exact),
        articleOutput: output(numbers.article),
      }),
    },
  ];
}

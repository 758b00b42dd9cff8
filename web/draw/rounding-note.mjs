// The note on why the article's rounded numbers differ from the exact ones, and how it rounds
// so that a row still adds up to 1 (plain rounding would not), with the query's own numbers. Shown in both roundings, so the reader sees the other side,
// but only for the article's own example, unscaled and unmasked: the article says nothing
// about other numbers.
import { formatVector } from '../format.mjs';

export function roundingNote({ numbers, tr }, i) {
  const { settings } = numbers;
  if (!numbers.isArticleExample || settings.scaled || settings.causal) return [];
  const { n, dV } = numbers.dims;
  const exact = Array.from({ length: n }, (_, j) => numbers.exact.weight(i, j));
  const tenths = (values) => formatVector(values, numbers.article.format);
  const output = (view) =>
    formatVector(
      Array.from({ length: dV }, (_, c) => view.output(i, c)),
      view.format,
    );
  // Plain rounding of each weight alone, and the cut to tenths the article starts from
  // (model/numbers.mjs roundTenthsKeepingSum): said with this row's numbers.
  const plain = exact.map((w) => Math.round(w * 10) / 10);
  const plainSum = Math.round(plain.reduce((a, b) => a + b, 0) * 10) / 10;
  const params = {
    i: i + 1,
    exactWeights: formatVector(exact, numbers.exact.format),
    articleWeights: tenths(exact.map((_, j) => numbers.article.weight(i, j))),
    plainWeights: tenths(plain),
    plainSum: numbers.article.format(plainSum),
    floors: tenths(exact.map((w) => Math.floor(w * 10) / 10)),
    exactOutput: output(numbers.exact),
    articleOutput: output(numbers.article),
  };
  return [
    {
      kind: 'rounding',
      text: tr(plainSum === 1 ? 'note.roundingPlain' : 'note.rounding', params),
    },
  ];
}

// How the report writes numbers and tables: one place, so every table rounds alike.

/** x to `digits` significant digits; whole numbers from 10^digits up. */
export const sig = (x, digits = 3) => {
  if (!Number.isFinite(x)) return String(x);
  if (x >= 10 ** digits) return x.toFixed(0);
  return x.toPrecision(digits);
};
export const ms = (x) => `${sig(x)} ms`;
export const gf = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
export const ratio = (x) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;
export const pct = (x) => `${(100 * x).toFixed(0)}%`;
/** A max abs difference: NaN stays visible. */
export const diff = (x) => (Number.isNaN(x) ? 'NaN' : x === 0 ? '0' : x.toExponential(1));
export const row = (cells) => `| ${cells.join(' | ')} |`;
/** A markdown table: header cells, one alignment cell per column ('--:' …), rows of cells. */
export const table = (header, align, rows) =>
  [row(header), row(align), ...rows.map(row)].join('\n');

/** One timed result of bench/common/harness.mjs as a cell: "ms · GFLOP/s", or why not. */
export function cell(result) {
  if (!result) return '—';
  if (result.status === 'ok') return `${ms(result.ms)} · ${gf(result.gflops)}`;
  if (result.status === 'fails') return `fails: “${result.reason}”`;
  return `capped (${result.reason.replace(/, over.*/, '')})`;
}

/** A time in ms of a result that is ok, else undefined. */
export const okMs = (result) => (result?.status === 'ok' ? result.ms : undefined);
/** a ÷ b as a ratio cell, '—' when either is missing. */
export const over = (a, b) => (a !== undefined && b !== undefined ? ratio(a / b) : '—');

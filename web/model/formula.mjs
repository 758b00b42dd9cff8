// The pieces both chapters' cell arithmetic (arithmetic.mjs, arithmetic-layer.mjs) writes its
// formulas with, so a dot product or an index reads the same in every popover.
import { formatExact, operand, subscript } from '../format.mjs';

/** "₁,₂" for the 0-based (i, j). */
export const index2 = (i, j) => `${subscript(i + 1)},${subscript(j + 1)}`;

/** A source cell to outline: its matrix, row, col and any extra data (query, head). */
export const ref = (matrix, row, col, extra = {}) => ({ matrix, row, col, ...extra });

/** A dot product written out: "1·0 + 0·1 + 2·1". */
export const dotTerms = (left, right) =>
  left.map((a, m) => `${operand(formatExact(a))}·${operand(formatExact(right[m]))}`).join(' + ');

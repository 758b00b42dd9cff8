// The scores, softmax, weighted and sum stages are a step for one query: query 1 walks them
// in order, and every-query.mjs repeats them for the others. One shape for all four: the step
// of query i has the id `${family}-${i + 1}`, the title `title.${family}` and its questions
// about query i's cells.

/**
 * @param {{ family: string, titleKey: string, duration: (dims) => number,
 *   build: (ctx, i: number) => object, questions: (i: number, numbers) => object[] }} stage
 *   build(ctx, i) draws query i's scene
 * @returns {{ queryStep: (i: number, dims) => object, stage: object }} the step of query i,
 *   and the stage (query 1's step) for its chapter's list
 */
export function perQuery({ family, titleKey, duration, build, questions }) {
  const queryStep = (i, dims) => ({
    id: `${family}-${i + 1}`,
    family,
    params: { query: i },
    duration: duration(dims),
    title: (tr) => tr(`title.${family}`, { i: i + 1 }),
    build: (ctx) => build(ctx, i),
    // Predict (tools/exercises.mjs)
    questions: (numbers) => questions(i, numbers),
  });
  return { queryStep, stage: { titleKey, steps: (dims) => [queryStep(0, dims)] } };
}

/** Questions about every cell of query i's row of a matrix (n keys): the scores, the weights. */
export const rowQuestions = (matrix) => (i, numbers) =>
  Array.from({ length: numbers.dims.n }, (_, j) => ({ cell: { matrix, row: i, col: j } }));

// Titles of steps and stages in the current language.

export function stepTitle(step, tr, dims) {
  const { scene, params } = step;
  switch (scene) {
    case 'projection-row':
      return tr(`title.row.${params.role}`, { i: params.row + 1 });
    case 'projection-matrix':
      return tr(`title.matrix.${params.role}`);
    case 'scores':
    case 'softmax':
    case 'weighted':
    case 'sum':
      return tr(`title.${scene}`, { i: params.query + 1 });
    default:
      return tr(`title.${scene}`, { n: dims.n });
  }
}

export const stageTitle = (stage, tr) => tr(`stage.${stage}`);

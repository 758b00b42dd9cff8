// What the page says about where the reader is, in words: the window title, the spoken step
// (an aria-live region for screen readers), the badges for the active settings, and the
// workbench's status line. All are views of the state and the numbers.

/** "Attention scores of query 1 · Self-attention, step by step" */
export const windowTitle = (step, tr, dims) => `${step.title(tr, dims)} · ${tr('app.title')}`;

/**
 * The spoken step: its position and title, then the scene's own sentence with the numbers as
 * shown (so it follows the rounding switch and every edit); while Predict asks about the step
 * (`held`), its position and title only, as its numbers are not shown yet.
 */
export function narration({ step, index, total, scene, tr, dims, held = false }) {
  const position = tr('narrate.step', { k: index + 1, total, title: step.title(tr, dims) });
  if (held) return position;
  return tr('sentences.two', { first: position, second: scene.narration });
}

/** The badges beside the step's title: which settings and numbers are in use. */
export function badges(settings, isArticleExample, tr) {
  return [
    !isArticleExample && { kind: 'own', text: tr('badge.ownNumbers') },
    settings.rounding === 'article' && { kind: 'rounding', text: tr('badge.articleRounding') },
    settings.scaled && { kind: 'scaled', text: tr('badge.scaled') },
    settings.causal && { kind: 'causal', text: tr('badge.causal') },
  ].filter(Boolean);
}

/** The workbench's status line for the state's status, in the current language. */
export function statusText(status, tr) {
  if (!status) return '';
  const params = { ...status.params };
  if (params.scheme) params.scheme = tr(`workbench.${params.scheme}`);
  return tr(status.key, params);
}

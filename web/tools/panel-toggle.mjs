// The tools bar's buttons that open a panel (Predict, Export): a disclosure button, its
// aria-expanded kept by whoever opens and closes the panel.
import { h } from '../dom.mjs';

/**
 * @param {string} tool  its name in data-tool ('predict', 'export')
 * @param {string} controls  the id of the panel it opens
 * @param {() => void} onclick
 */
export const panelToggle = (tool, controls, onclick) =>
  h('button', {
    type: 'button',
    class: 'tools-button',
    'aria-expanded': 'false',
    'aria-controls': controls,
    dataset: { tool },
    onclick,
  });

// Chapter 2's part of "Your numbers": the layer's shape (tokens, query heads, kv heads that
// divide them, head size) and its five matrices (X, W_Q, W_K, W_V, W_O), each entry editable.
// It only reports what the reader asks for; the app recomputes and calls update().
import { h } from '../dom.mjs';
import {
  LAYER_LIMITS,
  LAYER_MATRICES,
  kvChoices,
  layerDimsOf,
  sharingKind,
} from '../model/layer.mjs';
import { symbolNode } from '../draw/matrices.mjs';
import { createMatrixEditor } from './matrix-editor.mjs';
import { ROLES } from '../roles.mjs';

/** The editor's names: the weights as "later" ones (chapter 1 named them already). */
const NAMES = {
  x: 'matrix.x',
  wQuery: 'matrix.later.wQuery',
  wKey: 'matrix.later.wKey',
  wValue: 'matrix.later.wValue',
  wOut: 'ch2.matrix.wOut',
};

function select(onChange) {
  const element = h('select', {
    class: 'dim-select',
    onchange: () => onChange(Number(element.value)),
  });
  const text = h('span', { class: 'field-text' });
  return { select: element, text, element: h('label', { class: 'field' }, text, element) };
}

const options = (values, label = String) =>
  values.map((value) => h('option', { value: String(value), text: label(value) }));

export function createLayerEditor({ onDims, onEntry }) {
  const title = h('h3', { class: 'group-title', id: 'layer-editor-title' });
  const intro = h('p', { class: 'panel-intro' });
  const tokens = select((n) => onDims({ n }));
  const heads = select((value) => onDims({ heads: value }));
  const kvHeads = select((value) => onDims({ kvHeads: value }));
  const dHead = select((value) => onDims({ dHead: value }));
  tokens.select.append(...options(Array.from({ length: LAYER_LIMITS.maxTokens }, (_, k) => k + 1)));
  heads.select.append(...options(Array.from({ length: LAYER_LIMITS.maxHeads }, (_, k) => k + 1)));
  dHead.select.append(
    ...options(Array.from({ length: LAYER_LIMITS.maxHeadSize }, (_, k) => k + 1)),
  );
  const editors = Object.fromEntries(
    LAYER_MATRICES.map((name) => [
      name,
      createMatrixEditor({
        name: `layer-${name}`,
        role: ROLES[name].role,
        symbol: symbolNode(ROLES[name].symbol),
        onCommit: (row, col, value) => onEntry(name, row, col, value),
      }),
    ]),
  );
  const element = h(
    'section',
    { class: 'group layer-editor', 'aria-labelledby': 'layer-editor-title' },
    title,
    intro,
    h('div', { class: 'dims' }, tokens.element, heads.element, kvHeads.element, dHead.element),
    LAYER_MATRICES.map((name) => editors[name].element),
  );

  function update(layer, tr) {
    const dims = layerDimsOf(layer);
    title.textContent = tr('ch2.editor.title');
    intro.textContent = tr('ch2.editor.intro');
    tokens.text.textContent = tr('workbench.tokens');
    heads.text.textContent = tr('ch2.editor.heads');
    kvHeads.text.textContent = tr('ch2.editor.kvHeads');
    dHead.text.textContent = tr('ch2.editor.dHead');
    kvHeads.select.replaceChildren(
      ...options(
        kvChoices(dims.heads),
        (kv) => `${kv} · ${tr(`ch2.kv.${sharingKind({ heads: dims.heads, kvHeads: kv })}`)}`,
      ),
    );
    tokens.select.value = String(dims.n);
    heads.select.value = String(dims.heads);
    kvHeads.select.value = String(dims.kvHeads);
    dHead.select.value = String(dims.dHead);
    // "layer inputs": named apart from chapter 1's editors (each field's label says which).
    for (const name of LAYER_MATRICES)
      editors[name].update(layer[name], tr, tr('ch2.editor.matrix', { name: tr(NAMES[name]) }));
  }

  const clearMessages = () => LAYER_MATRICES.forEach((name) => editors[name].clearMessages());

  return { element, update, clearMessages };
}

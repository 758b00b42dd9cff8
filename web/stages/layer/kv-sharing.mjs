// Chapter 2: multi-head, grouped-query and multi-query attention. A switch sets the
// number of key/value heads (a real edit of the layer: the page recomputes through trace());
// the picture shows which query heads share which K/V head, and the numbers a KV cache holds
// for this example and, for sizes the reader types in, for a real model.
import { h } from '../../dom.mjs';
import { formula, labelled, mi, mo, row as mrow, sub } from '../../draw/mathml.mjs';
import { headChip } from '../../draw/layer-views.mjs';
import { duration, itemAmount, progressOf, reveal } from '../../draw/timing.mjs';
import { LLAMA_3_8B, MODEL_DEFAULTS, kvChoices, sharingKind } from '../../model/layer.mjs';
import { cacheNumbers } from '../../model/layer-numbers.mjs';
import { formatBytes, lengthSlider } from '../../draw/length-cost.mjs';
import { singleStep } from '../single-step.mjs';

const formatCount = (value, language) =>
  new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en').format(value);

function calculator(ctx) {
  const { tr, language } = ctx;
  // The reader's sizes live in the state (ctx.modelSizes); a copy here, each valid edit
  // written back through ctx.actions so that the next build of the scene shows it.
  const sizes = { ...ctx.modelSizes };
  const keep = (name, value) => {
    sizes[name] = value;
    ctx.actions.setModelSizes({ [name]: value });
    update();
  };
  const fields = [
    ['layers', 1, 1000],
    ['heads', 1, 1024],
    ['kvHeads', 1, 1024],
    ['dHead', 1, 1024],
    ['tokens', 1, 10_000_000],
  ];
  const result = h('p', { class: 'calc-result', role: 'status' });
  // The sum written out, each factor named (the two 2s: keys and values; bytes a number).
  const product = h('p', { class: 'calc-product' });
  const title = h('h3', { class: 'group-title' });
  const BYTE_TYPES = { 4: 'float32', 2: 'float16 / bfloat16', 1: 'int8' };
  const inputs = {};
  const update = () => {
    const { layers, heads, kvHeads, dHead, tokens, bytes } = sizes;
    const named = Object.keys(MODEL_DEFAULTS).every((key) => sizes[key] === MODEL_DEFAULTS[key]);
    title.textContent = named
      ? tr('ch2.kv.calc.named', { name: LLAMA_3_8B.name })
      : tr('ch2.kv.calc.yours', { name: LLAMA_3_8B.name });
    product.textContent = tr('ch2.kv.calc.product', {
      layers,
      tokens: formatCount(tokens, language),
      kvHeads,
      dHead,
      bytes,
      type: BYTE_TYPES[bytes],
      total: formatCount(cacheNumbers({ layers, tokens, kvHeads, dHead }) * bytes, language),
    });
    if (heads % kvHeads !== 0) {
      result.textContent = tr('ch2.kv.calc.divide', { heads, kvHeads });
      result.dataset.saved = '';
      return;
    }
    const cache = cacheNumbers({ layers, tokens, kvHeads, dHead }) * bytes;
    const mha = cacheNumbers({ layers, tokens, kvHeads: heads, dHead }) * bytes;
    result.dataset.cacheBytes = String(cache);
    result.dataset.mhaBytes = String(mha);
    result.dataset.saved = String(mha - cache);
    result.textContent = tr('ch2.kv.calc.result', {
      cache: formatBytes(cache, language),
      mha: formatBytes(mha, language),
      saved: formatBytes(mha - cache, language),
      times: formatCount(heads / kvHeads, language),
    });
  };
  const labelled = fields.map(([name, min, max]) => {
    const input = h('input', {
      type: 'number',
      class: 'calc-input',
      min: String(min),
      max: String(max),
      step: '1',
      inputmode: 'numeric',
      value: String(sizes[name]),
      dataset: { size: name },
    });
    input.addEventListener('input', () => {
      const value = Number(input.value);
      const ok = Number.isInteger(value) && value >= min && value <= max;
      input.setAttribute('aria-invalid', ok ? 'false' : 'true');
      if (ok) keep(name, value);
    });
    inputs[name] = input;
    return h(
      'label',
      { class: 'field' },
      h('span', { class: 'field-text', text: tr(`ch2.kv.calc.${name}`) }),
      input,
    );
  });
  const bytes = h(
    'select',
    { class: 'calc-input', dataset: { size: 'bytes' } },
    Object.entries(BYTE_TYPES)
      .sort(([a], [b]) => b - a)
      .map(([value, name]) =>
        h('option', { value: String(value), text: tr('ch2.kv.calc.bytesOption', { value, name }) }),
      ),
  );
  bytes.value = String(sizes.bytes);
  bytes.addEventListener('change', () => keep('bytes', Number(bytes.value)));
  update();
  return h(
    'section',
    { class: 'kv-calculator', 'aria-label': tr('ch2.kv.calc.title') },
    title,
    h(
      'div',
      { class: 'calc-fields' },
      labelled,
      h(
        'label',
        { class: 'field' },
        h('span', { class: 'field-text', text: tr('ch2.kv.calc.bytes') }),
        bytes,
      ),
    ),
    product,
    result,
  );
}

/**
 * The query heads that read another head's keys and values ("2, 4"), and those heads ("1, 3"):
 * each group's first head keeps its own K/V weights (model/layer.mjs), the others take them.
 */
function sharedHeads({ heads, group }) {
  const readers = Array.from({ length: heads }, (_, h) => h).filter((h) => h % group !== 0);
  return {
    readers: readers.map((h) => h + 1).join(', '),
    owners: [...new Set(readers.map((h) => h - (h % group) + 1))].join(', '),
  };
}

let radioGroups = 0;

function build(ctx) {
  const { numbers, tr, language } = ctx;
  const layer = numbers.layer;
  const { n, heads, kvHeads, dHead, group } = layer.dims;
  const choices = kvChoices(heads);
  // One radio group per built scene: unique on the page, even with several explainers on it.
  radioGroups += 1;
  const groupName = `kv-heads-${radioGroups}`;
  const options = choices.map((kv) => {
    const input = h('input', {
      type: 'radio',
      name: groupName,
      value: String(kv),
      checked: kv === kvHeads,
      dataset: { kv, focusKey: `kv-${kv}` },
      onchange: () => input.checked && ctx.actions.setLayerDims({ kvHeads: kv }),
    });
    const kind = sharingKind({ heads, kvHeads: kv });
    return h(
      'label',
      { class: 'segment-option' },
      input,
      h('span', { text: tr('ch2.kv.option', { kind: tr(`ch2.kv.${kind}`), kv }) }),
    );
  });
  const groups = Array.from({ length: kvHeads }, (_, g) =>
    h(
      'li',
      { class: `kv-group head-${g * group + 1}`, dataset: { kv: g } },
      h('span', { class: 'kv-box', text: tr('ch2.kv.kvHead', { g: g + 1 }) }),
      h(
        'span',
        { class: 'kv-served' },
        Array.from({ length: group }, (_, k) =>
          headChip(g * group + k, tr('ch2.head', { h: g * group + k + 1 })),
        ),
      ),
    ),
  );
  const cached = cacheNumbers({ tokens: n, kvHeads, dHead });
  const mha = cacheNumbers({ tokens: n, kvHeads: heads, dHead });
  const saving = h('p', {
    class: 'kv-saving',
    dataset: { cached, mha, saved: mha - cached },
    text: tr(kvHeads === heads ? 'ch2.kv.savingNone' : 'ch2.kv.saving', {
      n,
      kvHeads,
      heads,
      dHead,
      cached: formatCount(cached, language),
      mha: formatCount(mha, language),
      saved: formatCount(mha - cached, language),
    }),
  });
  const element = h(
    'div',
    { class: 'scene scene-kv-sharing' },
    h(
      'fieldset',
      { class: 'segmented kv-switch' },
      h('legend', { class: 'field-text', text: tr('ch2.kv.switch') }),
      h('div', { class: 'segment-options' }, options),
    ),
    h('ol', { class: 'kv-groups', 'aria-label': tr('ch2.kv.groups') }, groups),
    saving,
    calculator(ctx),
    lengthSlider(ctx),
  );

  function render(t) {
    const p = progressOf(t);
    groups.forEach((item, g) => reveal(item, itemAmount(p, kvHeads + 1, g), 8));
    reveal(saving, itemAmount(p, kvHeads + 1, kvHeads), 6);
  }

  const kind = sharingKind(layer.dims);
  return {
    element,
    render,
    explanation: {
      sentences: [
        tr('ch2.kv.cacheWhy'),
        tr(`ch2.kv.explain.${kind}`, { heads, kvHeads, group }),
        tr('ch2.kv.tradeoff'),
        // What sharing costs: the heads that read another head's K/V lose their own pattern.
        ...(kind === 'mha' ? [] : [tr('ch2.kv.erases', sharedHeads(layer.dims))]),
      ],
      formula: formula(
        tr('ch2.formula.cache'),
        mi('cache'),
        mo('='),
        labelled('2', tr('ch2.formula.keysValues')),
        mo('·'),
        mi('L'),
        mo('·'),
        mi('T'),
        mo('·'),
        sub(mi('H'), mi('kv')),
        mo('·'),
        sub(mi('d'), mi('head')),
        mo('·'),
        labelled(mrow(mi('bytes')), tr('ch2.formula.bytesEach')),
      ),
    },
    narration: tr('ch2.narrate.kv', {
      kind: tr(`ch2.kv.${kind}`),
      kvHeads,
      heads,
      cached,
      saved: mha - cached,
    }),
  };
}

const steps = () => [
  singleStep({
    id: 'kv-sharing',
    titleKey: 'ch2.title.kv',
    duration: duration(3, 0.8),
    build,
  }),
];

export default { titleKey: 'stage.kvSharing', steps, reads: ['layer'] };

// Stage 12's length slider: what n tokens cost the page's layer and a real model (Llama 3
// 8B), attention's multiply-adds (growing with n²) and the KV cache's bytes (growing with n),
// and how much each grows when n doubles. The counts come from model/layer-numbers.mjs.
import { h } from '../dom.mjs';
import { LLAMA_3_8B } from '../model/layer.mjs';
import { lengthCost } from '../model/layer-numbers.mjs';

/** The slider's lengths: 1, 2, 4, … up to the real model's context. */
export const LENGTHS = Array.from({ length: Math.log2(LLAMA_3_8B.context) + 1 }, (_, k) => 2 ** k);

/** Bytes as "1 GiB": binary units, at most two decimals. */
export function formatBytes(bytes, language) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = new Intl.NumberFormat(language === 'zh' ? 'zh-CN' : 'en', {
    maximumFractionDigits: 2,
  }).format(value);
  return `${text} ${units[unit]}`;
}

/**
 * @param {object} ctx the scene's context: numbers.layer.dims is the page's layer (float32,
 *   4 bytes a number, one layer)
 */
export function lengthSlider(ctx) {
  const { numbers, tr, language } = ctx;
  const locale = language === 'zh' ? 'zh-CN' : 'en';
  const count = (value) => new Intl.NumberFormat(locale).format(value);
  const times = (value) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  const { dModel, heads, kvHeads, dHead } = numbers.layer.dims;
  const models = [
    {
      id: 'example',
      model: { layers: 1, dModel, heads, kvHeads, dHead, bytes: 4 },
      name: tr('ch2.length.example', { heads, kvHeads, dHead }),
    },
    { id: 'llama', model: LLAMA_3_8B, name: tr('ch2.length.model', LLAMA_3_8B) },
  ];
  const start = LENGTHS.indexOf(2 ** Math.round(Math.log2(numbers.layer.dims.n)));
  const slider = h('input', {
    type: 'range',
    class: 'length-range',
    min: '0',
    max: String(LENGTHS.length - 1),
    step: '1',
    value: String(Math.max(0, start)),
  });
  const shown = h('output', { class: 'length-n' });
  const rows = models.map(({ id, name }) => {
    const attention = h('p', { class: 'length-attention', dataset: { model: id } });
    const cache = h('p', { class: 'length-cache', dataset: { model: id } });
    const growth = h('p', { class: 'length-growth', dataset: { model: id } });
    return {
      id,
      attention,
      cache,
      growth,
      element: h(
        'div',
        { class: 'length-model', dataset: { model: id } },
        h('h4', { class: 'length-name', text: name }),
        attention,
        cache,
        growth,
      ),
    };
  });
  const update = () => {
    const n = LENGTHS[Number(slider.value)];
    shown.textContent = count(n);
    slider.setAttribute('aria-valuetext', tr('ch2.length.tokens', { n }));
    models.forEach(({ model }, k) => {
      const { attention, cacheBytes } = lengthCost(model, n);
      const doubled = lengthCost(model, 2 * n);
      const row = rows[k];
      row.attention.dataset.value = String(attention);
      row.cache.dataset.value = String(cacheBytes);
      row.attention.textContent = tr('ch2.length.attention', { count: count(attention) });
      row.cache.textContent = tr('ch2.length.cache', {
        size: formatBytes(cacheBytes, language),
        bytes: count(cacheBytes),
      });
      row.growth.textContent = tr('ch2.length.growth', {
        n: count(n),
        double: count(2 * n),
        attention: times(doubled.attention / attention),
        cache: times(doubled.cacheBytes / cacheBytes),
      });
    });
  };
  slider.addEventListener('input', update);
  // The slider keeps its keys (the page's ← → Home End step the walkthrough), as a matrix
  // grid does: stopped before they reach the page.
  slider.addEventListener('keydown', (event) => {
    if (/^(Arrow|Home$|End$|Page)/.test(event.key)) event.stopPropagation();
  });
  update();
  return h(
    'section',
    { class: 'length-cost', 'aria-label': tr('ch2.length.title') },
    h('h3', { class: 'group-title', text: tr('ch2.length.title') }),
    h(
      'label',
      { class: 'length-field' },
      h('span', { class: 'field-text', text: tr('ch2.length.slider') }),
      slider,
      shown,
    ),
    rows.map((row) => row.element),
    h('p', { class: 'length-why', text: tr('ch2.length.why') }),
  );
}

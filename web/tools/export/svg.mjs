// A drawing (capture.mjs) as an SVG document: boxes as <rect>, borders as <line>, every
// number and word as <text>, so the figure stays sharp, searchable and editable.

const escape = (text) =>
  String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );
const n = (value) => String(Math.round(value * 100) / 100);
const opacityAttribute = (opacity) => (opacity < 1 ? ` opacity="${n(opacity)}"` : '');

function itemToSvg(item) {
  if (item.type === 'box') {
    const radius = item.radius ? ` rx="${n(item.radius)}"` : '';
    const fill = ` fill="${escape(item.fill ?? 'none')}"`;
    const inset = item.stroke ? item.strokeWidth / 2 : 0;
    const stroke = item.stroke
      ? ` stroke="${escape(item.stroke)}" stroke-width="${n(item.strokeWidth)}"`
      : '';
    return `<rect x="${n(item.x + inset)}" y="${n(item.y + inset)}" width="${n(item.width - 2 * inset)}" height="${n(item.height - 2 * inset)}"${radius}${fill}${stroke}${opacityAttribute(item.opacity)}/>`;
  }
  if (item.type === 'line') {
    return `<line x1="${n(item.x1)}" y1="${n(item.y1)}" x2="${n(item.x2)}" y2="${n(item.y2)}" stroke="${escape(item.stroke)}" stroke-width="${n(item.strokeWidth)}"${opacityAttribute(item.opacity)}/>`;
  }
  const { family, size, weight, style } = item.font;
  const italic = style === 'italic' ? ' font-style="italic"' : '';
  return `<text x="${n(item.x)}" y="${n(item.y)}" font-family="${escape(family)}" font-size="${n(size)}" font-weight="${escape(weight)}"${italic} fill="${escape(item.color)}"${opacityAttribute(item.opacity)}>${escape(item.text)}</text>`;
}

/**
 * @param {{ width, height, items }} drawing
 * @param {{ title: string, lang: string }} meta the figure's title (<title>) and language
 * @returns {string} a standalone SVG document
 */
export function toSvg(drawing, { title, lang }) {
  const { width, height } = drawing;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xml:lang="${escape(lang)}">`,
    `<title>${escape(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    '<g dominant-baseline="central" xml:space="preserve">',
    ...drawing.items.map(itemToSvg),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

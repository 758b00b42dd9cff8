// A scene as a list of flat drawing items read from its laid-out DOM: filled or outlined
// boxes (cell backgrounds, borders, highlights) and runs of text, each with its position,
// font and colour, and the opacity the scene's animation gave it. Both the SVG export (real
// <text>, never pixels) and the PNG and GIF exports (drawn on a canvas) draw from this list.
//
//   captureElement(element) -> { width, height, items }
//   item: { type: 'box', x, y, width, height, fill?, stroke?, strokeWidth?, radius?, opacity }
//       | { type: 'line', x1, y1, x2, y2, stroke, strokeWidth, opacity }
//       | { type: 'text', x, y, text, font: { family, size, weight, style }, color, opacity }
//   (x, y of a text item: its left edge and the middle of its line box)

/**
 * A computed colour as rgb()/rgba(), which every SVG viewer reads: colours mixed with
 * color-mix() are computed as "color(srgb r g b / a)" with channels from 0 to 1.
 */
export function plainColor(color) {
  const match = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(color);
  if (!match) return color;
  const channel = (value) => Math.round(Math.min(1, Math.max(0, Number(value))) * 255);
  const [r, g, b] = match.slice(1, 4).map(channel);
  const alpha = match[4] === undefined ? 1 : Number(match[4]);
  return alpha === 1 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

const transparent = (color) =>
  !color || color === 'transparent' || /rgba\([^)]*,\s*0(\.0+)?\)$/.test(plainColor(color));

function sideBorders(style, rect, opacity, items, origin) {
  const sides = [
    ['Top', rect.left, rect.top, rect.right, rect.top],
    ['Right', rect.right, rect.top, rect.right, rect.bottom],
    ['Bottom', rect.left, rect.bottom, rect.right, rect.bottom],
    ['Left', rect.left, rect.top, rect.left, rect.bottom],
  ];
  const widths = sides.map(([side]) => parseFloat(style[`border${side}Width`]) || 0);
  const colors = sides.map(([side]) => plainColor(style[`border${side}Color`]));
  const drawn = sides.map(
    ([side], k) =>
      widths[k] > 0 && style[`border${side}Style`] !== 'none' && !transparent(colors[k]),
  );
  if (
    drawn.every(Boolean) &&
    widths.every((w) => w === widths[0]) &&
    colors.every((c) => c === colors[0])
  ) {
    return { stroke: colors[0], strokeWidth: widths[0] };
  }
  sides.forEach(([, x1, y1, x2, y2], k) => {
    if (!drawn[k]) return;
    // The line runs along the middle of the border's width, inside the box.
    const inset = widths[k] / 2;
    const dx = k === 1 ? -inset : k === 3 ? inset : 0;
    const dy = k === 0 ? inset : k === 2 ? -inset : 0;
    items.push({
      type: 'line',
      x1: x1 + dx - origin.left,
      y1: y1 + dy - origin.top,
      x2: x2 + dx - origin.left,
      y2: y2 + dy - origin.top,
      stroke: colors[k],
      strokeWidth: widths[k],
      opacity,
    });
  });
  return null;
}

/**
 * A masked cell's stripes (a repeating-linear-gradient background, which a capture of boxes
 * and borders would lose): its first colour as the fill, its last as diagonal lines clipped
 * to the box. null for any other background.
 */
function hatching(style, rect, opacity, origin) {
  const image = style.backgroundImage;
  if (!image.startsWith('repeating-linear-gradient')) return null;
  const colours = image.match(/rgba?\([^)]*\)/g);
  if (!colours || colours.length < 2) return null;
  const stroke = plainColor(colours.at(-1));
  const { width: w, height: h } = rect;
  const lines = [];
  // "/" stripes, every 12 px along the diagonal: x + y = c inside the box.
  for (let c = 6; c < w + h; c += 12) {
    const x1 = Math.max(0, c - h);
    const x2 = Math.min(w, c);
    lines.push({
      type: 'line',
      x1: rect.left + x1 - origin.left,
      y1: rect.top + (c - x1) - origin.top,
      x2: rect.left + x2 - origin.left,
      y2: rect.top + (c - x2) - origin.top,
      stroke,
      strokeWidth: 4,
      opacity,
    });
  }
  return { fill: plainColor(colours[0]), lines };
}

function fontOf(style) {
  return {
    family: style.fontFamily,
    size: parseFloat(style.fontSize),
    weight: style.fontWeight,
    style: style.fontStyle,
  };
}

/** The runs of a text node: one per line it is laid out on (words joined per line). */
function textRuns(node) {
  const text = node.textContent;
  if (!text.trim()) return [];
  // The run starts at its first visible character (a leading space would shift it).
  const start = text.search(/\S/);
  const end = text.trimEnd().length;
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, end);
  const rects = range.getClientRects();
  if (rects.length === 0) return [];
  if (rects.length === 1) return [{ text: text.slice(start, end), rect: rects[0] }];
  const runs = [];
  const words = /\S+/g;
  for (let match = words.exec(text); match; match = words.exec(text)) {
    range.setStart(node, match.index);
    range.setEnd(node, match.index + match[0].length);
    const rect = range.getBoundingClientRect();
    const last = runs[runs.length - 1];
    if (last && Math.abs(last.rect.top - rect.top) < 2) {
      last.text += ` ${match[0]}`;
      last.rect = { left: last.rect.left, top: last.rect.top, height: last.rect.height };
    } else runs.push({ text: match[0], rect });
  }
  return runs;
}

/**
 * The box of an absolutely positioned ::before or ::after (a matrix's brackets), from its
 * offsets within its element's padding box; null for any other pseudo-element.
 */
function pseudoBox(element, rect, which) {
  const style = getComputedStyle(element, which);
  if (style.content === 'none' || style.content === 'normal' || style.position !== 'absolute')
    return null;
  const px = (value) => parseFloat(value) || 0;
  const host = getComputedStyle(element);
  const left = rect.left + px(host.borderLeftWidth) + px(style.left);
  const top = rect.top + px(host.borderTopWidth) + px(style.top);
  const borderBox = style.boxSizing === 'border-box';
  const width =
    px(style.width) + (borderBox ? 0 : px(style.borderLeftWidth) + px(style.borderRightWidth));
  const height =
    px(style.height) + (borderBox ? 0 : px(style.borderTopWidth) + px(style.borderBottomWidth));
  return {
    style,
    rect: { left, top, right: left + width, bottom: top + height, width, height },
  };
}

/**
 * @param {Element} element the scene (laid out and visible to layout, possibly off-screen)
 * @returns {{ width: number, height: number, items: object[] }} coordinates relative to the
 *   element's top-left corner
 */
export function captureElement(element) {
  const origin = element.getBoundingClientRect();
  const items = [];
  let right = origin.width;
  let bottom = origin.height;
  const place = (x, y) => ({ x: x - origin.left, y: y - origin.top });

  function walk(node, inherited) {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        const style = getComputedStyle(node);
        if (style.visibility === 'hidden' || transparent(style.color)) continue;
        for (const run of textRuns(child)) {
          const at = place(run.rect.left, run.rect.top + run.rect.height / 2);
          items.push({
            type: 'text',
            ...at,
            text: run.text,
            font: fontOf(style),
            color: plainColor(style.color),
            opacity: inherited,
          });
        }
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const style = getComputedStyle(child);
      if (style.display === 'none') continue;
      const opacity = inherited * (parseFloat(style.opacity) || 0);
      if (opacity < 0.02) continue;
      // Hidden text, and controls that are no part of the picture (data-export="skip").
      if (child.classList.contains('visually-hidden') || child.dataset.export === 'skip') continue;
      const rect = child.getBoundingClientRect();
      if (style.visibility !== 'hidden' && rect.width > 0 && rect.height > 0) {
        const box = {
          type: 'box',
          ...place(rect.left, rect.top),
          width: rect.width,
          height: rect.height,
          radius: parseFloat(style.borderTopLeftRadius) || 0,
          opacity,
        };
        if (!transparent(style.backgroundColor)) box.fill = plainColor(style.backgroundColor);
        const hatch = hatching(style, rect, opacity, origin);
        if (hatch) box.fill = hatch.fill;
        // Sides drawn one by one (a card's thicker coloured top) go above the box's fill.
        const sides = [];
        Object.assign(box, sideBorders(style, rect, opacity, sides, origin) ?? {});
        if (box.fill || box.stroke) items.push(box);
        if (hatch) items.push(...hatch.lines);
        items.push(...sides);
        for (const which of ['::before', '::after']) {
          const pseudo = pseudoBox(child, rect, which);
          if (!pseudo) continue;
          const at = place(pseudo.rect.left, pseudo.rect.top);
          const outline = sideBorders(pseudo.style, pseudo.rect, opacity, items, origin);
          const fill = transparent(pseudo.style.backgroundColor)
            ? null
            : plainColor(pseudo.style.backgroundColor);
          if (outline || fill) {
            items.push({
              type: 'box',
              ...at,
              width: pseudo.rect.width,
              height: pseudo.rect.height,
              radius: 0,
              opacity,
              ...(fill ? { fill } : {}),
              ...(outline ?? {}),
            });
          }
        }
        right = Math.max(right, rect.right - origin.left);
        bottom = Math.max(bottom, rect.bottom - origin.top);
      }
      walk(child, opacity);
    }
  }
  walk(element, 1);
  return { width: Math.ceil(right), height: Math.ceil(bottom), items };
}

/** The width of a line of text in a CSS font, as a canvas measures it (or a generous guess). */
function textWidth(text, font) {
  const context = globalThis.document?.createElement('canvas').getContext('2d');
  if (!context) return text.length * Number.parseFloat(font.split(' ')[1]) * 0.65;
  context.font = font;
  return context.measureText(text).width;
}

/**
 * A figure: a title line (and a smaller caption line) above the captured scene, on white.
 * @returns {{ width, height, items }}
 */
export function figure(drawing, { title, caption, font }) {
  const margin = 16;
  const titleSize = 18;
  const captionSize = 13;
  const top = margin + titleSize + 8 + captionSize + 12;
  const text = (y, value, size, weight, color) => ({
    type: 'text',
    x: margin,
    y,
    text: value,
    font: { family: font, size, weight, style: 'normal' },
    color,
    opacity: 1,
  });
  const moved = drawing.items.map((item) =>
    item.type === 'line'
      ? {
          ...item,
          x1: item.x1 + margin,
          x2: item.x2 + margin,
          y1: item.y1 + top,
          y2: item.y2 + top,
        }
      : { ...item, x: item.x + margin, y: item.y + top },
  );
  // The title may be wider than the scene ("Output 1: the sum of the weighted values" over a
  // narrow table): the drawing is as wide as the widest of them, so nothing is cut off.
  const widest = Math.max(
    drawing.width,
    textWidth(title, `700 ${titleSize}px ${font}`),
    textWidth(caption, `400 ${captionSize}px ${font}`),
  );
  return {
    width: Math.ceil(widest + 2 * margin),
    height: drawing.height + top + margin,
    items: [
      text(margin + titleSize / 2, title, titleSize, '700', 'rgb(27, 33, 48)'),
      text(
        margin + titleSize + 8 + captionSize / 2,
        caption,
        captionSize,
        '400',
        'rgb(93, 102, 119)',
      ),
      ...moved,
    ],
  };
}

// A tiny element builder. Text always goes in through textContent / text nodes and never as
// HTML, so nothing from a URL or an edit can become markup. Styles are only ever set through
// the CSSOM (element.style), which a strict Content-Security-Policy allows.

/**
 * h('td', { class: 'cell', dataset: { row: 1 }, onclick: fn }, 'text', childNode, [more])
 * Attribute values false / null / undefined are skipped; true sets an empty attribute.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  applyProps(element, props);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Same as h() for SVG elements (icons). */
export function svg(tag, props = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  applyProps(element, props);
  append(element, children);
  return element;
}

// The page builds a few thousand elements while it starts; this is its hottest code, so it
// avoids per-call allocations (entries arrays, flattened copies) and the dataset setter.
const dataAttributes = new Map();

/** A dataset name as the dataset setter maps it: inspectRoot -> data-inspect-root. */
function dataAttribute(name) {
  let attribute = dataAttributes.get(name);
  if (attribute === undefined) {
    attribute = `data-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    dataAttributes.set(name, attribute);
  }
  return attribute;
}

function applyProps(element, props) {
  for (const key in props) {
    const value = props[key];
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.setAttribute('class', value);
    else if (key === 'text') element.textContent = String(value);
    else if (key === 'dataset') {
      for (const name in value) element.setAttribute(dataAttribute(name), String(value[name]));
    } else if (key === 'style') Object.assign(element.style, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2), value);
    } else element.setAttribute(key, value === true ? '' : String(value));
  }
}

/** Appends strings (as text), nodes and (nested) arrays of them; skips null and false. */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * Sets one inline style property, unless this function already set it to this value. Scenes
 * call it for every element at every frame; writing only what changed keeps the browser
 * from restyling (and repainting) what did not move.
 */
export function setStyle(element, property, value) {
  const written = (element.writtenStyles ??= new Map());
  if (written.get(property) === value) return;
  written.set(property, value);
  element.style[property] = value;
}

/** Sets an element's text unless it already reads so (a text write relays out the line). */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

export const clamp01 = (value) => Math.min(1, Math.max(0, value));

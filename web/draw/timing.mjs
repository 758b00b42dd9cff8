// Helpers that turn a scene's t in [0, 1] into the state of each animated item. They are
// pure functions of t: scrubbing backwards, stepping and reduced motion (t = 1) all draw
// from the same numbers.
import { clamp01, setStyle } from '../dom.mjs';

/** The last part of every step holds the finished picture, so playback pauses on it. */
export const HOLD = 0.15;

/** t -> progress of the animation proper, reaching 1 where the hold begins. */
export const progressOf = (t) => clamp01(t / (1 - HOLD));

/**
 * With `count` items animated one after another, how far item `index` has come (0 = not
 * started, 1 = done) at progress p.
 */
export const itemAmount = (p, count, index) => clamp01(p * count - index);

/** The item being animated at progress p (the last one once all are done). */
export const activeItem = (p, count) => Math.min(count - 1, Math.floor(p * count));

/** Maps x in [from, to] to [0, 1], clamped. */
export const ramp = (x, from, to) => clamp01((x - from) / (to - from));

/** Ease in-out (cubic). */
export const ease = (x) => (x < 0.5 ? 4 * x * x * x : 1 - (-2 * x + 2) ** 3 / 2);

export const lerp = (a, b, x) => a + (b - a) * x;

/**
 * Fades and lifts an element in as `amount` goes from 0 to 1. Not yet started, it is hidden
 * (visibility), not only transparent: what the scene has not shown yet (an answer Predict
 * asks for) is not read out by a screen reader either, nor reached with Tab.
 */
export function reveal(element, amount, rise = 6) {
  const eased = ease(clamp01(amount));
  setStyle(element, 'opacity', String(eased));
  setStyle(element, 'visibility', eased <= 0 ? 'hidden' : '');
  setStyle(
    element,
    'transform',
    eased >= 1 ? '' : `translateY(${((1 - eased) * rise).toFixed(2)}px)`,
  );
}

/** A result cell landing: its number fades in with a small pop (hidden before, as reveal). */
export function land(cell, amount) {
  const eased = ease(clamp01(amount));
  const value = cell.valueElement ?? cell;
  setStyle(value, 'opacity', String(eased));
  setStyle(value, 'visibility', eased <= 0 ? 'hidden' : '');
  setStyle(value, 'transform', eased >= 1 ? '' : `scale(${(0.6 + 0.4 * eased).toFixed(3)})`);
  cell.classList.toggle('is-pending', eased <= 0);
}

export function setActive(elements, active) {
  for (const element of elements) element.classList.toggle('is-active', active);
}

/**
 * Seconds a step takes at 1× speed: a base plus a beat per item the scene animates one after
 * another (a column, a key, a value row...).
 */
export function duration(items, perItem = 1.1) {
  return 1.4 + items * perItem;
}

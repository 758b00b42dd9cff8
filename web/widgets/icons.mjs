// Transport icons as inline SVG (no icon fonts, no network). Decorative: the buttons carry
// their names as text.
import { svg } from '../dom.mjs';

const PATHS = {
  restart: 'M6 5h2v14H6zM20 5v14L9.5 12z',
  previous: 'M17 5v14L6.5 12z',
  play: 'M8 5v14l11-7z',
  pause: 'M7 5h4v14H7zM13 5h4v14h-4z',
  next: 'M7 5v14l10.5-7z',
};

export function icon(name) {
  return svg(
    'svg',
    {
      class: 'icon',
      viewBox: '0 0 24 24',
      width: '18',
      height: '18',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    svg('path', { d: PATHS[name], fill: 'currentColor' }),
  );
}

// The page's skeleton: where each part goes. Built while the module downloads; the app fills
// the parts from the state. `ids` makes element ids unique per app instance on the page.
import { h } from '../dom.mjs';

/**
 * @param {{ stageList, transport, tables, workbench, languageSwitch, notices, tools,
 *   sceneHost }} widgets  tools: the learning tools (tools/index.mjs); sceneHost: where the
 *   scenes go
 * @param {(name: string) => string} id
 */
export function buildPage(widgets, id) {
  const { stageList, transport, tables, workbench, languageSwitch, notices, tools, sceneHost } =
    widgets;
  const el = {
    title: h('h1', { class: 'app-title' }),
    subtitle: h('p', { class: 'app-subtitle' }),
    source: h('p', { class: 'app-source' }),
    skip: h('a', { class: 'skip-link', href: `#${id('scene-title')}` }),
    stageLabel: h('p', { class: 'scene-stage' }),
    sceneTitle: h('h2', { class: 'scene-title', id: id('scene-title'), tabindex: '-1' }),
    badges: h('div', { class: 'badges' }),
    sceneHost,
    explanation: h('div', { class: 'explanation' }),
    notes: h('div', { class: 'notes' }),
    keysHint: h('p', { class: 'keys-hint' }),
    // Shown while the scene is wider than its box (app/scenes.mjs): the box's edge shadow
    // lies under the scene's cells, where nobody sees it.
    scrollCue: h('p', { class: 'scroll-cue', hidden: true }),
    footer: h('p', { class: 'footer-text' }),
    narration: h('p', { class: 'visually-hidden', 'aria-live': 'polite', id: id('narration') }),
  };
  el.parts = [
    el.skip,
    h(
      'header',
      { class: 'masthead' },
      h('div', { class: 'masthead-text' }, el.title, el.subtitle, el.source),
      languageSwitch.element,
    ),
    notices.element,
    h(
      'div',
      { class: 'layout' },
      stageList.element,
      h(
        'main',
        { class: 'walkthrough', id: id('walkthrough') },
        h(
          'section',
          { class: 'scene-panel', 'aria-labelledby': id('scene-title') },
          h(
            'header',
            { class: 'scene-header' },
            h('div', { class: 'scene-heading' }, el.stageLabel, el.sceneTitle),
            el.badges,
          ),
          transport.element,
          tools.bar,
          tools.exportPanel,
          el.scrollCue,
          el.sceneHost,
          tools.exercise,
          el.explanation,
          el.notes,
        ),
        el.keysHint,
        tables.element,
      ),
      workbench.element,
    ),
    h('footer', { class: 'page-footer' }, el.footer),
    el.narration,
  ];
  return el;
}

// Headless Chromium as the page tests, the package tests and scripts/bench start it: the
// system's /usr/bin/chromium driven by playwright-core, with the same flags everywhere.
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

// Without the networking flags, the closed network here floods Chromium with errors.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Headless Chromium 156 builds its omnibox popup (a WebUI page in a renderer process of its
  // own, some forty modules) for every new page the tests open, each in a new window: 88–100
  // ms of CPU during each page load that page-metrics times, on the same core, and none of the
  // page's own. It takes both features off: with WebUIOmniboxPopup alone the popup, now its
  // "AI mode" variant, was still built (a trace of each load: 88–93 ms of that renderer's CPU,
  // 0 with both). (Chromium merges this list with playwright's own --disable-features.)
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

/**
 * Starts headless Chromium. Without a profile: a Browser (playwright gives every launch a new
 * temporary profile). With `profile`, a folder: a persistent BrowserContext kept in it.
 * @param {{ profile?: string }} options
 */
export function launchChromium({ profile } = {}) {
  const options = { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS };
  return profile === undefined
    ? chromium.launch(options)
    : chromium.launchPersistentContext(profile, options);
}

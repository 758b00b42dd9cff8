// Firefox as the cross-engine tests start it: Debian's Firefox ESR, headless, driven by
// puppeteer-core over WebDriver BiDi (Firefox's own remote protocol: no geckodriver needed).
// puppeteer gives every launch a new temporary profile and deletes it on close().
import puppeteer from 'puppeteer-core';

export const FIREFOX_PATH = '/usr/bin/firefox-esr';

/**
 * Starts headless Firefox. `reducedMotion` sets the preference behind
 * `prefers-reduced-motion: reduce` (WebDriver BiDi has no command to emulate it).
 * @param {{ reducedMotion?: boolean }} options
 */
export function launchFirefox({ reducedMotion = true } = {}) {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    timeout: 30000,
    protocolTimeout: 30000,
    extraPrefsFirefox: { 'ui.prefersReducedMotion': reducedMotion ? 1 : 0 },
  });
}

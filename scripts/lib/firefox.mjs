// Firefox as the cross-engine tests start it: Debian's Firefox ESR, headless, driven by
// puppeteer-core over WebDriver BiDi (Firefox's own remote protocol: no geckodriver needed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

export const FIREFOX_PATH = '/usr/bin/firefox-esr';

// Profiles still on disk, removed when Node exits even if close() never ran (a test file
// stopped by its timeout). puppeteer kills the browser itself on exit and on signals.
const profiles = new Set();
process.on('exit', () => {
  for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
});

/**
 * Starts headless Firefox with a new profile in a temporary folder; the Browser's close()
 * also removes the folder. `reducedMotion` sets the preference behind
 * `prefers-reduced-motion: reduce` (WebDriver BiDi has no command to emulate it).
 * @param {{ reducedMotion?: boolean }} options
 */
export async function launchFirefox({ reducedMotion = true } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'firefox-profile-'));
  profiles.add(profile);
  const removeProfile = () => {
    rmSync(profile, { recursive: true, force: true });
    profiles.delete(profile);
  };
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: profile,
      timeout: 30000,
      protocolTimeout: 30000,
      extraPrefsFirefox: { 'ui.prefersReducedMotion': reducedMotion ? 1 : 0 },
    });
  } catch (error) {
    removeProfile();
    throw error;
  }
  const close = browser.close.bind(browser);
  browser.close = async () => {
    try {
      await close();
    } finally {
      removeProfile();
    }
  };
  return browser;
}

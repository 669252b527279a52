import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run with apt); Playwright's own browser download does not work here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser tests cannot run, or undefined when they can. Under CI a missing Chromium is a failure,
 * never a skip: .ci/run installs it.
 */
export function chromiumUnavailable(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`Browser tests cannot be skipped under CI: ${reason}`);
  return reason;
}

/**
 * A fresh profile each time; Playwright wants the profile as an argument, not as `--user-data-dir`.
 * `extraArgs`: more switches (the runtime smoke suite maps a page's host name with `--host-resolver-rules`).
 */
export async function launchChromium(
  extraArgs: readonly string[] = [],
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'agent-platform-sdk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    headless: true,
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Types of what test/conformance/runtimes.test.ts uses from scripts/test-runtimes.mjs.
import type { SmokeCheck, SmokeConfig } from '../test/runtimes/smoke.ts';

export interface BuiltApp {
  /** The scratch app the packed package is installed in, with the hosts next to it. */
  app: string;
  /** worker-host.ts bundled for workerd; browser-host.ts bundled for a page. */
  worker: string;
  page: string;
}

export interface Runtime {
  label: string;
  skip?: () => string | undefined;
  lazy?: () => Runtime;
  run?: (built: BuiltApp, config: SmokeConfig) => Promise<SmokeCheck[]>;
}

export const RUNTIMES: Runtime[];
export function prepareApp(work: string): Promise<BuiltApp>;
export function runCell(
  runtime: Runtime,
  built: BuiltApp,
  config: SmokeConfig,
  label: string,
): Promise<{ ok: boolean; line: string; checks?: SmokeCheck[] }>;
export function inChromiumPage<T>(built: BuiltApp, fn: string, argument: unknown, host?: string): Promise<T>;
export function chromiumMissing(): string | undefined;

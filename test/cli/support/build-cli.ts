import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export interface BuiltCli {
  /** Path of the bundled `agent-platform` command. */
  readonly cli: string;
  remove(): void;
}

/**
 * The `agent-platform` CLI built with esbuild from src/cli as tsup builds the bin (with `withDemo`, also the
 * demo module it loads when that command runs). The output goes inside the repository so that msw, ws and the
 * other packages resolve from its node_modules, as they do from an installed package.
 */
export async function buildAgentPlatformCli(options: { withDemo?: boolean } = {}): Promise<BuiltCli> {
  const cache = new URL('../../../node_modules/.cache/', import.meta.url).pathname;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'agent-platform-cli-'));
  const source = (name: string) => new URL(`../../../src/cli/${name}.ts`, import.meta.url).pathname;
  await build({
    entryPoints: {
      'cli/agent-platform': source('agent-platform'),
      ...(options.withDemo ? { 'cli/demo': source('demo') } : {}),
    },
    outdir: work,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'silent',
  });
  return {
    cli: join(work, 'cli', 'agent-platform.js'),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

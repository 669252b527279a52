/**
 * Renders a {@link TraceRedirect} for the three usual ways of changing a runtime pod's environment. All three
 * print credentials in clear (the header values of the recipe): keep their output out of logs.
 */

import { toYaml, type YamlValue } from '../core/yaml.js';
import { TraceTargetError } from './errors.js';
import { hasControl, type TraceRedirect } from './redirect.js';

/**
 * No control character anywhere: a line break in a hand-built redirect would start a new variable
 * (`LD_PRELOAD=…`) in a dotenv file or a `kubectl` argument. Targets are checked by `traceRedirectEnv` already.
 */
function checkRedirect(redirect: TraceRedirect): TraceRedirect {
  if (hasControl(Object.entries(redirect.set) + redirect.unset.join()))
    throw new TraceTargetError('redirect', 'holds a control character');
  return redirect;
}

export interface KubectlOptions {
  namespace?: string;
}

/**
 * Arguments for `kubectl` (pass them to `execFile('kubectl', args)`, no shell involved): `set env <resource>
 * KEY=value … KEY-` (a trailing `-` removes a variable).
 */
export function kubectlSetEnvArgs(
  redirect: TraceRedirect,
  resource: string,
  options: KubectlOptions = {},
): string[] {
  checkRedirect(redirect);
  const args = ['set', 'env', resource];
  if (options.namespace) args.push('-n', options.namespace);
  for (const [key, value] of Object.entries(redirect.set)) args.push(`${key}=${value}`);
  for (const key of redirect.unset) args.push(`${key}-`);
  return args;
}

export interface HelmValuesOptions {
  /** Dotted path of the chart switch of the bundled backend, written `false` (e.g. `tracing.enabled`). */
  bundledSwitch?: string;
}

/**
 * Helm values: variables to unset are written as empty strings, so no chart default re-injects them (an empty
 * value counts as unset for OpenTelemetry and for the platform's SDK).
 */
export function helmValues(redirect: TraceRedirect, options: HelmValuesOptions = {}): string {
  checkRedirect(redirect);
  const env: Record<string, string> = {};
  for (const key of redirect.unset) env[key] = '';
  Object.assign(env, redirect.set);
  const path = options.bundledSwitch?.split('.') ?? [];
  return toYaml({
    ...(path.reduceRight<YamlValue>((value, key) => ({ [key]: value }), false) as object),
    env,
  });
}

/**
 * A dotenv file: `KEY='value'` lines (single quotes: no interpolation in the usual dotenv readers; a `'`, which
 * only a URL can hold here, is written `%27`), and `KEY=` (empty, i.e. unset) for the variables to remove.
 */
export function dotenv(redirect: TraceRedirect): string {
  const lines = checkRedirect(redirect).unset.map((key) => `${key}=`);
  for (const [key, value] of Object.entries(redirect.set))
    lines.push(`${key}='${value.replace(/'/g, '%27')}'`);
  return `${lines.join('\n')}\n`;
}

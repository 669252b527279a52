import { RequestValidationError } from '../core/errors.js';
import { describe } from '../core/validate.js';
import type { WarmRuntimeConfig } from './schemas.js';
import { shellQuote } from './shell-quote.js';

/** The installer-managed default configuration. */
export const DEFAULT_CONFIG_NAME = 'v1_current';
/** Ephemeral storage reserved by each warm pod by default (warm-pool rule 2). */
export const DEFAULT_WARM_POD_STORAGE = '25Gi';
/** Pool size assumed for a configuration without `count`: the service's code-level fallback. */
export const FALLBACK_POOL_SIZE = 3;

// ---------------------------------------------------------------------------------------------------------
// Rule 1: one image per selectable configuration.

export interface SharedImage {
  image: string;
  /** The configurations that share `image` (two or more), in list order. */
  names: string[];
}

/**
 * rule 1: configurations sharing an image reference cannot be selected independently (the image is
 * the sandbox spec id). Returns every image used by two or more configurations.
 */
export function findSharedImages(
  configs: readonly Pick<WarmRuntimeConfig, 'name' | 'image'>[],
): SharedImage[] {
  const byImage = new Map<string, string[]>();
  for (const config of configs) {
    const names = byImage.get(config.image) ?? [];
    names.push(config.name);
    byImage.set(config.image, names);
  }
  return [...byImage].filter(([, names]) => names.length > 1).map(([image, names]) => ({ image, names }));
}

/** Names of the other configurations that already use `image` (saving `name` with it would break rule 1). */
export function configsUsingImage(
  configs: readonly Pick<WarmRuntimeConfig, 'name' | 'image'>[],
  name: string,
  image: string,
): string[] {
  return configs.filter((config) => config.name !== name && config.image === image).map((c) => c.name);
}

// ---------------------------------------------------------------------------------------------------------
// Rule 2: the sum of pool sizes must fit node ephemeral storage.

export interface StorageCheckOptions {
  /** Ephemeral storage available to warm pods: bytes, or a Kubernetes quantity such as `500Gi` or `1Ti`. */
  nodeCapacity: number | string;
  /** Reserved per warm pod; default `25Gi`. */
  perPodStorage?: number | string;
  /** Pool size assumed where `count` is unset (installer-wide Warm Runtime Count); default 3. */
  defaultCount?: number;
}

export interface PoolStorage {
  name: string;
  count: number;
  /** True when the configuration has no `count` and `defaultCount` was assumed. */
  countAssumed: boolean;
  bytes: number;
}

export interface StorageCheck {
  fits: boolean;
  pods: number;
  requiredBytes: number;
  capacityBytes: number;
  perPodBytes: number;
  pools: PoolStorage[];
  /** One line for humans, e.g. `7 warm pods × 25Gi = 175Gi needed, 150Gi available: …`. */
  message: string;
}

/**
 * rule 2: every warm pod reserves its ephemeral storage (25 Gi by default) whether used or not, so
 * the sum of all pool sizes must fit node capacity, or pods stay `Pending`.
 */
export function checkEphemeralStorage(
  configs: readonly Pick<WarmRuntimeConfig, 'name' | 'count'>[],
  options: StorageCheckOptions,
): StorageCheck {
  const capacityBytes = parseQuantity(options.nodeCapacity, 'nodeCapacity');
  const perPodBytes = parseQuantity(options.perPodStorage ?? DEFAULT_WARM_POD_STORAGE, 'perPodStorage');
  const defaultCount = options.defaultCount ?? FALLBACK_POOL_SIZE;
  if (!Number.isSafeInteger(defaultCount) || defaultCount < 0) {
    throw new RequestValidationError(
      `must be an integer >= 0, got ${describe(defaultCount)}`,
      'defaultCount',
    );
  }
  const pools = configs.map((config) => {
    const countAssumed = typeof config.count !== 'number';
    const count = countAssumed ? defaultCount : (config.count as number);
    return { name: config.name, count, countAssumed, bytes: count * perPodBytes };
  });
  const pods = pools.reduce((sum, pool) => sum + pool.count, 0);
  const requiredBytes = pods * perPodBytes;
  const fits = requiredBytes <= capacityBytes;
  const head = `${pods} warm pods × ${formatGi(perPodBytes)} = ${formatGi(requiredBytes)} needed, ${formatGi(capacityBytes)} available`;
  const assumed = pools.filter((pool) => pool.countAssumed).map((pool) => pool.name);
  const note = assumed.length > 0 ? ` (count ${defaultCount} assumed for ${assumed.join(', ')})` : '';
  const message = fits
    ? `${head}${note}: fits`
    : `${head}${note}: does not fit; warm pods beyond capacity stay Pending (warm-pool rule 2). Lower some counts or add node storage`;
  return { fits, pods, requiredBytes, capacityBytes, perPodBytes, pools, message };
}

// Kubernetes quantity suffixes (binary and decimal), in bytes.
const UNITS: Record<string, number> = {
  '': 1,
  Ki: 1024,
  Mi: 1048576,
  Gi: 1073741824,
  Ti: 1099511627776,
  Pi: 1125899906842624,
  Ei: 0x1000000000000000, // 2^60
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** Bytes of a Kubernetes quantity (`25Gi`, `500G`, `1.5Ti`, `107374182400`) or of a number of bytes. */
export function parseQuantity(value: number | string, field = 'quantity'): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value;
  } else if (typeof value === 'string') {
    const match = /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?\s*$/.exec(value);
    if (match) return Number(match[1]) * UNITS[match[2] ?? '']!;
  }
  throw new RequestValidationError(
    `must be a number of bytes or a Kubernetes quantity such as "500Gi", got ${describe(value)}`,
    field,
  );
}

function formatGi(bytes: number): string {
  const gi = bytes / 2 ** 30;
  return `${Number.isInteger(gi) ? gi : gi.toFixed(1)}Gi`;
}

// ---------------------------------------------------------------------------------------------------------
// What to do after every platform upgrade.

export type UpgradeAction = 'rebuild-image' | 'delete-override' | 'refresh-override' | 'resave';

export interface UpgradeStep {
  action: UpgradeAction;
  /** The configuration concerned (absent for `rebuild-image`). */
  name?: string;
  image?: string;
  /** The count to keep (`null`: the configuration has none, so the installer-wide count applies). */
  count?: number | null;
  /** The CLI command for the step, shell-quoted; absent for manual steps. */
  command?: string;
  note: string;
}

export interface UpgradeChecklistOptions {
  /** The installer default to derive from; default `v1_current`. */
  defaultName?: string;
  /** How to invoke the CLI in `command`; default `warm-pools`. */
  cli?: string;
}

/**
 * the after-upgrade checklist for an effective set: rebuild custom images on the new agent-server
 * base, refresh or delete an override of `v1_current`, then re-derive every `db` configuration from the
 * upgraded default, keeping its image and its count. API-saved configurations are frozen snapshots (rule 3):
 * skipping this keeps them on the old agent server, and newer features fail with
 * `AGENT_SERVER_VERSION_TOO_OLD`.
 */
export function upgradeChecklist(
  configs: readonly WarmRuntimeConfig[],
  options: UpgradeChecklistOptions = {},
): UpgradeStep[] {
  const defaultName = options.defaultName ?? DEFAULT_CONFIG_NAME;
  const cli = options.cli ?? 'warm-pools';
  const db = configs.filter((config) => config.source === 'db');
  const override = db.find((config) => config.name === defaultName);
  const others = db.filter((config) => config.name !== defaultName);
  const steps: UpgradeStep[] = [];

  for (const image of new Set(others.map((config) => config.image))) {
    steps.push({
      action: 'rebuild-image',
      image,
      note: `Rebuild ${image} on the new agent-server base version (push a new tag if you version tags)`,
    });
  }
  if (override) {
    const count = typeof override.count === 'number' ? override.count : null;
    steps.push({
      action: 'delete-override',
      name: defaultName,
      image: override.image,
      count,
      command: `${cli} delete ${shellQuote(defaultName)}`,
      note: `The API override of ${defaultName} is a frozen snapshot: delete it so the upgraded installer entry is the default again, before re-deriving anything from it`,
    });
    steps.push({
      action: 'refresh-override',
      name: defaultName,
      image: override.image,
      count,
      command: pipeline(cli, defaultName, defaultName, undefined, count),
      note: `Only if you still need the override: re-create it from the upgraded installer entry${count === null ? '' : `, keeping count ${count}`}; add --image if it used a custom image (it was ${override.image})`,
    });
  }
  for (const config of others) {
    const count = typeof config.count === 'number' ? config.count : null;
    steps.push({
      action: 'resave',
      name: config.name,
      image: config.image,
      count,
      command: pipeline(cli, defaultName, config.name, config.image, count),
      note:
        count === null
          ? `Re-derive ${config.name} from the upgraded ${defaultName}; it has no count (installer-wide default), but the template copies ${defaultName}'s count: remove it from the body to keep the default`
          : `Re-derive ${config.name} from the upgraded ${defaultName}, keeping count ${count}; use the rebuilt image's tag if it changed`,
    });
  }
  return steps;
}

function pipeline(
  cli: string,
  from: string,
  to: string,
  image: string | undefined,
  count: number | null,
): string {
  const flags = [
    ...(image === undefined ? [] : ['--image', shellQuote(image)]),
    ...(count === null ? [] : ['--count', String(count)]),
  ];
  return `${cli} template ${[shellQuote(from), ...flags].join(' ')} | ${cli} save ${shellQuote(to)} -f -`;
}

import { HttpResponse, http } from 'msw/http';
import { type DoubleContext, detail, fieldRequired, jsonBody, route } from './double-context.js';

type Json = Record<string, unknown>;

/** One kind of installable (skills, plugins, canvas extensions): where its routes are and how it is named. */
interface Kind {
  base: string;
  param: string;
  /** The list's field in `GET …/installed`, e.g. `skills`. */
  listField: string;
  /** The singular in `refresh`'s answer, e.g. `skill`. */
  itemField: string;
  label: string;
}

export const INSTALLABLE_KINDS = {
  skills: {
    base: '/api/skills',
    param: 'skill_name',
    listField: 'skills',
    itemField: 'skill',
    label: 'Skill',
  },
  plugins: {
    base: '/api/plugins',
    param: 'plugin_name',
    listField: 'plugins',
    itemField: 'plugin',
    label: 'Plugin',
  },
  canvasExtensions: {
    base: '/api/canvas-extensions',
    param: 'extension_name',
    listField: 'canvas_extensions',
    itemField: 'canvas_extension',
    label: 'Canvas extension',
  },
} as const satisfies Record<string, Kind>;

/** Installed items per kind (name → OpenAPI `Installed…Response`). Nothing is fetched: the source names it. */
export class SimulatedInstallables {
  readonly installed: Record<keyof typeof INSTALLABLE_KINDS, Map<string, Json>> = {
    skills: new Map(),
    plugins: new Map(),
    canvasExtensions: new Map(),
  };
}

/** The name a source gives: the last path segment without `.git` (`github:org/repo` → `repo`). */
export function nameOfSource(source: string): string {
  return (source.split(/[/:]/).filter(Boolean).pop() ?? source).replace(/\.git$/, '');
}

/** install / list / get / enable / uninstall / refresh of one kind, as the real routes answer them. */
export function installableHandlers(ctx: DoubleContext, kind: Kind, items: Map<string, Json>) {
  const one = `${kind.base}/installed/{${kind.param}}`;
  const guarded =
    (resolve: (request: Request, name: string) => Response | Promise<Response>) =>
    ({ request, params }: { request: Request; params: Record<string, unknown> }) =>
      ctx.guard(request, params) ?? resolve(request, String(params[kind.param] ?? ''));
  const missing = (name: string) => detail(404, `${kind.label} '${name}' is not installed`);
  return [
    http.post(
      route(ctx, `${kind.base}/install`),
      guarded(async (request) => {
        const body = await jsonBody(request);
        if (typeof body.source !== 'string') return fieldRequired('body', 'source');
        const name = nameOfSource(body.source);
        if (items.has(name) && body.force !== true)
          return detail(409, `${kind.label} '${name}' is already installed`);
        const item: Json = {
          name,
          version: '1.0.0',
          description: `${kind.label} from ${body.source}`,
          enabled: true,
          source: body.source,
          resolved_ref: body.ref ?? 'main',
          repo_path: body.repo_path ?? null,
          installed_at: new Date().toISOString(),
          install_path: `/home/openhands/.openhands${kind.base.replace('/api', '')}/installed/${name}`,
        };
        items.set(name, item);
        return HttpResponse.json(item);
      }),
    ),
    http.get(
      route(ctx, `${kind.base}/installed`),
      guarded(() => HttpResponse.json({ [kind.listField]: [...items.values()] })),
    ),
    http.get(
      route(ctx, one),
      guarded((_request, name) => {
        const item = items.get(name);
        return item ? HttpResponse.json(item) : missing(name);
      }),
    ),
    http.patch(
      route(ctx, one),
      guarded(async (request, name) => {
        const item = items.get(name);
        if (!item) return missing(name);
        const enabled = (await jsonBody(request)).enabled;
        if (typeof enabled !== 'boolean') return fieldRequired('body', 'enabled');
        item.enabled = enabled;
        return HttpResponse.json({ name, enabled });
      }),
    ),
    http.delete(
      route(ctx, one),
      guarded((_request, name) =>
        items.delete(name)
          ? HttpResponse.json({ message: `${kind.label} '${name}' uninstalled` })
          : missing(name),
      ),
    ),
    http.post(
      route(ctx, `${one}/refresh`),
      guarded((_request, name) => {
        const item = items.get(name);
        if (!item) return missing(name);
        return HttpResponse.json({
          message: `${kind.label} '${name}' is up to date`,
          [kind.itemField]: item,
        });
      }),
    ),
  ];
}

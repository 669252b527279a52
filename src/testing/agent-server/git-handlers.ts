import { HttpResponse, http } from 'msw/http';
import { type DoubleContext, detail, requiredQuery, route } from './double-context.js';
import type { SimulatedGit } from './simulated-git.js';

const RUNTIME = '/api/conversations/{runtime_conversation_id}';

/**
 * Git routes, server-wide and per conversation runtime (1.58.0): changes, diff, commits, a commit's changes,
 * and the provider repository search (no provider token here: an empty page with `missing_token`).
 */
export function gitHandlers(ctx: DoubleContext, git: SimulatedGit) {
  const both = (path: string) => [route(ctx, `/api/git${path}`), route(ctx, `${RUNTIME}/git${path}`)];
  return [
    ...both('/changes').map((path) =>
      http.get(path, ({ request, params }) => {
        const denied = ctx.guard(request, params);
        if (denied) return denied;
        const folder = requiredQuery(request, 'path');
        return folder instanceof Response ? folder : HttpResponse.json(git.changes(folder));
      }),
    ),
    ...both('/diff').map((path) =>
      http.get(path, ({ request, params }) => {
        const denied = ctx.guard(request, params);
        if (denied) return denied;
        const file = requiredQuery(request, 'path');
        if (file instanceof Response) return file;
        const commit = new URL(request.url).searchParams.get('commit') ?? undefined;
        return HttpResponse.json(git.diff(file, commit));
      }),
    ),
    ...both('/commits').map((path) =>
      http.get(path, ({ request, params }) => {
        const denied = ctx.guard(request, params);
        if (denied) return denied;
        const folder = requiredQuery(request, 'path');
        if (folder instanceof Response) return folder;
        const limit = Number(new URL(request.url).searchParams.get('limit') ?? 20);
        return HttpResponse.json(git.commits(folder, limit));
      }),
    ),
    ...both('/commits/{sha}/changes').map((path) =>
      http.get(path, ({ request, params }) => {
        const denied = ctx.guard(request, params);
        if (denied) return denied;
        const folder = requiredQuery(request, 'path');
        if (folder instanceof Response) return folder;
        const changes = git.commitChanges(String(params.sha), folder);
        return changes ? HttpResponse.json(changes) : detail(404, `Commit not found: ${params.sha}`);
      }),
    ),
    http.get(route(ctx, '/api/git/repositories/search'), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      const provider = requiredQuery(request, 'provider');
      if (provider instanceof Response) return provider;
      return HttpResponse.json({ items: [], next_page_id: null, missing_token: true });
    }),
  ];
}

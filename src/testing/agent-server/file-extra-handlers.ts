import { HttpResponse, http } from 'msw/http';
import { gzip, tar, zip } from './archives.js';
import { type DoubleContext, detail, route } from './double-context.js';
import type { SimulatedGit } from './simulated-git.js';
import type { SimulatedFiles } from './workspace-files.js';

const RUNTIME = '/api/conversations/{runtime_conversation_id}';
const encoder = new TextEncoder();

const bytesAnswer = (bytes: Uint8Array, type: string, name: string) =>
  new HttpResponse(bytes, {
    headers: {
      'content-type': type,
      'content-length': String(bytes.byteLength),
      'content-disposition': `attachment; filename="${name}"`,
    },
  });

/**
 * The file routes beyond upload/download: the trajectory as a zip (`meta.json` and one `events/<n>.json`
 * per persisted event, as the server writes them), a folder as tar.gz or as a git-delta patch, and the home
 * folder. Server-wide and per conversation runtime.
 */
export function fileExtraHandlers(ctx: DoubleContext, files: SimulatedFiles, git: SimulatedGit) {
  const { store } = ctx;
  const both = (path: string) => [route(ctx, `/api/file${path}`), route(ctx, `${RUNTIME}/file${path}`)];
  return [
    ...both('/download-trajectory/{conversation_id}').map((path) =>
      http.get(path, ({ request, params }) => {
        const denied = ctx.guard(request, params);
        if (denied) return denied;
        const id = String(params.conversation_id);
        const conversation = store.getConversation(id);
        if (!conversation) return detail(404, 'Not Found');
        const entries = new Map<string, Uint8Array>([
          ['meta.json', encoder.encode(JSON.stringify(store.state(id)))],
        ]);
        conversation.events.forEach((event, index) => {
          entries.set(
            `events/event-${String(index).padStart(5, '0')}-${event.id}.json`,
            encoder.encode(JSON.stringify(event)),
          );
        });
        return bytesAnswer(zip(entries), 'application/zip', `${conversation.id.replaceAll('-', '')}.zip`);
      }),
    ),
    ...both('/archive').map((path) =>
      http.get(path, async ({ request, params }) => {
        const denied = ctx.guard(request, params);
        if (denied) return denied;
        const query = new URL(request.url).searchParams;
        const folder = (query.get('path') ?? '').replace(/(.)\/+$/, '$1');
        if (!folder.startsWith('/')) return detail(400, 'Path must be absolute');
        if (!files.isFolder(folder)) return detail(404, 'Directory not found');
        const name = folder.split('/').pop() || 'root';
        if (query.get('format') === 'tar.gz') {
          const entries = new Map<string, Uint8Array>();
          for (const file of files.filesUnder(folder))
            entries.set(`${name}/${file.slice(folder.length + 1)}`, files.read(file) as Uint8Array);
          return bytesAnswer(await gzip(tar(entries)), 'application/gzip', `${name}.tar.gz`);
        }
        return bytesAnswer(encoder.encode(patchOf(git, folder)), 'text/x-diff', `${name}.patch`);
      }),
    ),
    http.get(route(ctx, '/api/file/home'), ({ request, params }) => {
      const denied = ctx.guard(request, params);
      if (denied) return denied;
      return HttpResponse.json({
        home: '/home/openhands',
        favorites: [{ name: 'workspace', path: '/workspace' }],
        locations: [
          { name: 'Home', path: '/home/openhands' },
          { name: 'Workspace', path: '/workspace' },
        ],
      });
    }),
  ];
}

/** The folder's changes as a unified diff, the text `git diff` would give (whole files, one hunk each). */
function patchOf(git: SimulatedGit, folder: string): string {
  const root = git.repositoryOf(folder);
  let patch = '';
  for (const change of git.changes(folder)) {
    const { original, modified } = git.diff(`${root}/${change.path}`);
    const before = original === null ? [] : original.split('\n');
    const after = modified === null ? [] : modified.split('\n');
    patch += `diff --git a/${change.path} b/${change.path}\n`;
    patch += `--- ${original === null ? '/dev/null' : `a/${change.path}`}\n`;
    patch += `+++ ${modified === null ? '/dev/null' : `b/${change.path}`}\n`;
    patch += `@@ -${before.length ? 1 : 0},${before.length} +${after.length ? 1 : 0},${after.length} @@\n`;
    patch += before.map((line) => `-${line}\n`).join('') + after.map((line) => `+${line}\n`).join('');
  }
  return patch;
}

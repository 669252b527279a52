// Every method of every AgentServerClient namespace (and of a conversation handle's runtime namespaces)
// succeeds against the simulator, its answer decoded by the SDK's own decoders. The list of methods is read
// from the client itself: a new method without a recipe here (and so, likely, without a double) fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SERVER_FEATURES, AgentServerClient } from '../../src/agent-server/index.js';
import { isNotFoundError, isUnprocessableEntityError } from '../../src/core/errors.js';
import { type MswSimulator, startSimulator } from '../../src/testing.js';

// biome-ignore lint/suspicious/noExplicitAny: recipes call methods picked by name
type Api = any;
interface Fixture {
  client: AgentServerClient;
  conversationId: string;
  /** Per-namespace values passed between recipes (an id made by one, used by the next). */
  memo: Record<string, unknown>;
}
type Recipe = (api: Api, fx: Fixture) => Promise<unknown>;

const ROOT = '/workspace/doubles';
const bytes = new Uint8Array([0, 255, 128, 10, 13]);

/** Methods of an object, own and inherited, in prototype order. */
function methodsOf(target: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(target); proto && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function')
        names.add(name);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return [...names];
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** What runs in the simulated shell and what the file doubles hold, shared by files, bash and git. */
const filesRecipes = (ROOT: string): Record<string, Recipe> => ({
  upload: async (files) => expect((await files.upload(`${ROOT}/data.bin`, bytes)).file_size).toBe(5),
  download: async (files) => expect(await files.download(`${ROOT}/data.bin`)).toEqual(bytes),
  downloadStream: async (files) => {
    const chunks = await collect<Uint8Array>(await files.downloadStream(`${ROOT}/data.bin`));
    expect(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)).toBe(5);
  },
  downloadBlob: async (files) => expect((await files.downloadBlob(`${ROOT}/data.bin`)).size).toBe(5),
  downloadText: async (files) => {
    await files.upload(`${ROOT}/hello.txt`, 'héllo\n');
    expect(await files.downloadText(`${ROOT}/hello.txt`)).toBe('héllo\n');
  },
  createDirectory: (files) => files.createDirectory(`${ROOT}/made/here`),
  downloadTrajectory: async (files, fx) => {
    const zip: Uint8Array = await files.downloadTrajectory(fx.conversationId);
    expect([zip[0], zip[1]]).toEqual([0x50, 0x4b]); // "PK"
  },
  archive: async (files) => {
    const tar: Uint8Array = await files.archive(ROOT, { format: 'tar.gz' });
    expect([tar[0], tar[1]]).toEqual([0x1f, 0x8b]); // gzip
    const patch = new TextDecoder().decode(await files.archive(ROOT));
    expect(patch).toContain('+++ b/hello.txt');
  },
  home: async (files) => expect((await files.home()).home).toEqual(expect.any(String)),
  searchSubdirectories: async (files) =>
    expect(
      (await files.searchSubdirectories(ROOT)).items.map((item: { name: string }) => item.name),
    ).toContain('made'),
});

const bashRecipes = (ROOT: string): Record<string, Recipe> => ({
  start: async (bash, fx) => {
    const started = await bash.start({ command: 'echo started', cwd: ROOT });
    expect(started.kind).toBe('BashCommand');
    fx.memo.commandId = started.id;
  },
  execute: async (bash) => {
    const listing = await bash.execute({ command: 'ls -la', cwd: ROOT });
    expect(listing).toMatchObject({ kind: 'BashOutput', exit_code: 0 });
    expect(listing.stdout).toMatch(/^total \d+\n/);
    expect(listing.stdout).toContain('hello.txt');
    expect(await bash.execute('definitely-not-a-command')).toMatchObject({
      exit_code: 127,
      stderr: '/bin/sh: 1: definitely-not-a-command: not found\n',
    });
  },
  search: async (bash) =>
    expect((await collect(bash.search({ kind: 'BashCommand' }))).length).toBeGreaterThan(0),
  output: async (bash, fx) => {
    const chunks = await bash.output(fx.memo.commandId);
    expect(chunks.map((chunk: { stdout?: string }) => chunk.stdout).join('')).toBe('started\n');
  },
  get: async (bash, fx) => expect((await bash.get(fx.memo.commandId)).id).toBe(fx.memo.commandId),
  live: async (bash, fx) => {
    // The stored events first (REST), then live over /sockets/bash-events; `for await` gets typed frames.
    const live = bash.live({ history: true });
    const ids: string[] = [];
    for await (const event of live) {
      ids.push(event.id);
      if (event.id === fx.memo.commandId) break;
    }
    expect(ids).toContain(fx.memo.commandId);
    expect(live.closed).toBe(true);
  },
  clear: async (bash) => expect(typeof (await bash.clear())).toBe('object'),
  stop: (bash, fx) => bash.stop(fx.memo.commandId),
});

const gitRecipes = (ROOT: string): Record<string, Recipe> => ({
  changes: async (git, fx) => {
    const made = await fx.client.bash.execute({
      command: `git init && git add . && git commit -m first && printf "two\\n" > hello.txt`,
      cwd: ROOT,
    });
    expect(made.exit_code, made.stderr ?? '').toBe(0);
    expect(await git.changes(ROOT)).toEqual([{ status: 'UPDATED', path: 'hello.txt' }]);
  },
  diff: async (git) =>
    expect(await git.diff(`${ROOT}/hello.txt`)).toEqual({ original: 'héllo', modified: 'two' }),
  commits: async (git, fx) => {
    const page = await git.commits(ROOT);
    expect(page.commits.map((commit: { subject: string }) => commit.subject)).toEqual(['first']);
    fx.memo.sha = page.commits[0].sha;
  },
  commitChanges: async (git, fx) =>
    expect(await git.commitChanges(fx.memo.sha, ROOT)).toContainEqual({ status: 'ADDED', path: 'hello.txt' }),
  searchRepositories: async (git) =>
    expect(await git.searchRepositories({ provider: 'github' })).toMatchObject({ items: [] }),
});

const VSCODE: Record<string, Recipe> = {
  url: async (vscode) => expect(await vscode.url()).toBeNull(),
  status: async (vscode) => expect((await vscode.status()).enabled).toBe(false),
};

const conversationBody = {
  agent: { llm: { model: 'simulated/model', api_key: 'sk-simulated-secret' }, tools: [{ name: 'terminal' }] },
  workspace: { working_dir: ROOT },
};

const RECIPES: Record<string, Record<string, Recipe>> = {
  server: {
    info: async (server) => expect((await server.info()).version).toEqual(expect.any(String)),
    root: async (server) => expect((await server.root()).version).toEqual(expect.any(String)),
    alive: async (server) => expect((await server.alive()).status).toBe('ok'),
    health: async (server) => expect((await server.health()).status).toBe('ok'),
    ready: (server) => server.ready(),
    initStatus: async (server) => expect((await server.initStatus()).state).toBe('ready'),
    initialize: async (server) => expect((await server.initialize({})).state).toBe('ready'),
  },
  conversations: {
    start: async (conversations, fx) => {
      fx.memo.started = (await conversations.create(conversationBody)).id;
    },
    create: async (conversations) =>
      expect((await conversations.create(conversationBody)).id).toEqual(expect.any(String)),
    get: async (conversations, fx) =>
      expect((await conversations.get(fx.conversationId)).id).toBe(fx.conversationId),
    getMany: async (conversations, fx) =>
      expect(
        (await conversations.getMany([fx.conversationId, crypto.randomUUID()])).map(
          (i: { id?: string } | null) => i?.id ?? null,
        ),
      ).toEqual([fx.conversationId, null]),
    search: async (conversations) =>
      expect((await collect(conversations.search())).length).toBeGreaterThan(0),
    pages: async (conversations) => expect((await collect(conversations.pages())).length).toBeGreaterThan(0),
    count: async (conversations) => expect(await conversations.count()).toBeGreaterThan(0),
    setTitle: (conversations, fx) => conversations.setTitle(fx.conversationId, 'titled'),
    update: (conversations, fx) => conversations.update(fx.conversationId, { tags: { team: 'sdk' } }),
    run: (conversations, fx) => conversations.run(fx.memo.started),
    pause: (conversations, fx) => conversations.pause(fx.memo.started),
    setConfirmationPolicy: (conversations, fx) =>
      conversations.setConfirmationPolicy(fx.conversationId, { kind: 'NeverConfirm' }),
    interrupt: (conversations, fx) => conversations.interrupt(fx.conversationId),
    finalResponse: async (conversations, fx) =>
      expect(await conversations.finalResponse(fx.conversationId)).toEqual(expect.any(String)),
    askAgent: async (conversations, fx) =>
      expect(await conversations.askAgent(fx.conversationId, 'what now?')).toContain('what now?'),
    condense: (conversations, fx) => conversations.condense(fx.conversationId),
    fork: async (conversations, fx) =>
      expect((await conversations.fork(fx.conversationId, { title: 'forked' })).title).toBe('forked'),
    navigate: async (conversations, fx) =>
      expect((await conversations.navigate(fx.conversationId, null)).id).toBe(fx.conversationId),
    startChild: async (conversations, fx) =>
      expect(
        (await conversations.startChild(fx.conversationId, { task: 'a side task' })).parent_conversation_id,
      ).toBe(fx.conversationId),
    startGoal: (conversations, fx) => conversations.startGoal(fx.conversationId, { objective: 'ship it' }),
    stopGoal: (conversations, fx) => conversations.stopGoal(fx.conversationId),
    resumeGoal: (conversations, fx) => conversations.resumeGoal(fx.conversationId),
    updateSecrets: (conversations, fx) =>
      conversations.updateSecrets(fx.conversationId, { TOKEN: 'sk-token-value' }),
    setSecurityAnalyzer: (conversations, fx) => conversations.setSecurityAnalyzer(fx.conversationId, null),
    switchProfile: (conversations, fx) => conversations.switchProfile(fx.conversationId, 'default'),
    switchLlm: (conversations, fx) =>
      conversations.switchLlm(fx.conversationId, { model: 'openai/other', api_key: 'sk-other' }),
    switchAcpModel: (conversations, fx) => conversations.switchAcpModel(fx.conversationId, 'default'),
    loadPlugin: (conversations, fx) => conversations.loadPlugin(fx.conversationId, 'github:org/plugin'),
    runtime: async (conversations, fx) =>
      expect((await conversations.runtime(fx.conversationId)).runtime_status).toBe('available'),
    reprovisionRuntime: async (conversations, fx) =>
      expect((await conversations.reprovisionRuntime(fx.conversationId)).can_resume).toBe(true),
    workspaceIndex: async (conversations, fx) => {
      await fx.client.files.upload(`${ROOT}/index.html`, '<h1>hi</h1>');
      expect(await conversations.workspaceIndex(fx.conversationId)).toBe('<h1>hi</h1>');
    },
    workspaceFile: async (conversations, fx) => {
      await fx.client.files.upload(`${ROOT}/sub/data.bin`, bytes);
      expect(await conversations.workspaceFile(fx.conversationId, 'sub/data.bin')).toEqual(bytes);
    },
    waitUntil: async (conversations, fx) =>
      expect(
        await conversations.waitUntil(fx.conversationId, ['idle', 'paused', 'finished'], { timeout: 5_000 }),
      ).toMatch(/^(idle|paused|finished)$/),
    serverInfo: async (conversations) =>
      expect((await conversations.serverInfo()).version).toEqual(expect.any(String)),
    toJSON: async (conversations) =>
      expect(JSON.stringify(conversations.toJSON())).not.toContain('sk-simulated-secret'),
    delete: (conversations, fx) => conversations.delete(fx.memo.started),
  },
  events: {
    send: (events, fx) =>
      events.send(fx.conversationId, { role: 'user', content: [{ type: 'text', text: 'hi' }] }),
    search: async (events, fx) => {
      const found = await collect<{ id: string }>(events.search(fx.conversationId));
      expect(found.length).toBeGreaterThan(0);
      fx.memo.eventId = found[0]?.id;
    },
    pages: async (events, fx) =>
      expect((await collect(events.pages(fx.conversationId))).length).toBeGreaterThan(0),
    get: async (events, fx) =>
      expect((await events.get(fx.conversationId, fx.memo.eventId)).id).toBe(fx.memo.eventId),
    count: async (events, fx) => expect(await events.count(fx.conversationId)).toBeGreaterThan(0),
    respondToConfirmation: (events, fx) => events.respondToConfirmation(fx.conversationId, { accept: true }),
    subscribe: async (events, fx) => {
      const subscription = events.subscribe(fx.conversationId);
      await subscription.ready;
      subscription.close();
    },
    // Internal: what `bash.live()` calls (the bash recipes follow the stream itself).
    followBash: async (events) => {
      const live = events.followBash();
      await live.ready;
      live.close();
    },
    serverInfo: async (events) => expect((await events.serverInfo()).version).toEqual(expect.any(String)),
    requireFeature: (events) => events.requireFeature(AGENT_SERVER_FEATURES.sessionSocket),
    toJSON: async (events) => expect(events.toJSON()).toEqual(expect.any(Object)),
  },
  files: filesRecipes(ROOT),
  bash: bashRecipes(ROOT),
  git: gitRecipes(ROOT),
  vscode: VSCODE,
  tools: {
    list: async (tools) => expect(await tools.list()).toContain('terminal'),
    catalog: async (tools) => expect((await tools.catalog()).tools.length).toBeGreaterThan(0),
  },
  skills: {
    load: async (skills) => expect(Array.isArray((await skills.load({})).skills)).toBe(true),
    catalog: async (skills) => expect(Array.isArray((await skills.catalog()).skills)).toBe(true),
    sync: async (skills) => expect((await skills.sync()).status).toEqual(expect.any(String)),
    install: async (skills) =>
      expect((await skills.install({ source: 'github:org/my-skill' })).name).toBe('my-skill'),
    listInstalled: async (skills) => expect((await skills.listInstalled()).skills).toHaveLength(1),
    getInstalled: async (skills) => expect((await skills.getInstalled('my-skill')).enabled).toBe(true),
    setEnabled: async (skills) => expect((await skills.setEnabled('my-skill', false)).enabled).toBe(false),
    refresh: async (skills) => expect((await skills.refresh('my-skill')).skill.name).toBe('my-skill'),
    uninstall: async (skills) => {
      await skills.uninstall('my-skill');
      await expect(skills.getInstalled('my-skill')).rejects.toSatisfy(isNotFoundError);
    },
    marketplace: async (skills) => expect(Array.isArray((await skills.marketplace()).skills)).toBe(true),
    subAgents: async (skills) => expect((await skills.subAgents()).agents.length).toBeGreaterThan(0),
  },
  plugins: {
    load: async (plugins) => expect(Array.isArray((await plugins.load()).plugins)).toBe(true),
    fetch: async (plugins) =>
      expect((await plugins.fetch({ source: 'github:org/plug' })).source).toBe('github:org/plug'),
    install: async (plugins) =>
      expect((await plugins.install({ source: 'github:org/plug' })).name).toBe('plug'),
    listInstalled: async (plugins) => expect((await plugins.listInstalled()).plugins).toHaveLength(1),
    getInstalled: async (plugins) => expect((await plugins.getInstalled('plug')).name).toBe('plug'),
    setEnabled: async (plugins) => expect((await plugins.setEnabled('plug', true)).enabled).toBe(true),
    refresh: async (plugins) => expect((await plugins.refresh('plug')).plugin.name).toBe('plug'),
    uninstall: (plugins) => plugins.uninstall('plug'),
    marketplace: async (plugins) => expect(Array.isArray((await plugins.marketplace()).plugins)).toBe(true),
  },
  canvasExtensions: {
    install: async (canvas) =>
      expect((await canvas.install({ source: 'github:org/board' })).name).toBe('board'),
    listInstalled: async (canvas) => expect((await canvas.listInstalled()).canvas_extensions).toHaveLength(1),
    getInstalled: async (canvas) => expect((await canvas.getInstalled('board')).name).toBe('board'),
    setEnabled: (canvas) => canvas.setEnabled('board', true),
    backendStatus: async (canvas) => expect((await canvas.backendStatus('board')).state).toBe('stopped'),
    prepareBackend: async (canvas) => expect((await canvas.prepareBackend('board')).state).toBe('prepared'),
    startBackend: async (canvas) => expect((await canvas.startBackend('board')).state).toBe('running'),
    backendLogs: async (canvas) =>
      expect((await canvas.backendLogs('board')).logs).toEqual(expect.any(String)),
    stopBackend: async (canvas) => expect((await canvas.stopBackend('board')).state).toBe('stopped'),
    deleteBackendData: (canvas) => canvas.deleteBackendData('board'),
    bundle: async (canvas) => expect(await canvas.bundle('board')).toMatchObject({ name: 'board' }),
    icon: async (canvas) => expect(await canvas.icon('board')).toMatch(/^<svg/),
    createAppBackendSession: async (canvas) =>
      expect((await canvas.createAppBackendSession('board')).ingress_url).toMatch(/^https:/),
    deleteAppBackendSession: (canvas) => canvas.deleteAppBackendSession('board'),
    uninstall: (canvas) => canvas.uninstall('board'),
  },
  hooks: { load: async (hooks) => expect(await hooks.load({ projectDir: ROOT })).toBeNull() },
  mcp: {
    test: async (mcp) =>
      expect(await mcp.test({ server: { type: 'stdio', command: 'nope' } })).toMatchObject({ ok: false }),
    startOAuth: async (mcp, fx) => {
      const started = await mcp.startOAuth({ server: { type: 'http', url: 'https://mcp.example.com' } });
      fx.memo.jobId = started.job_id;
    },
    oauthStatus: async (mcp, fx) => expect((await mcp.oauthStatus(fx.memo.jobId)).job_id).toBe(fx.memo.jobId),
    submitOAuthCallback: async (mcp, fx) =>
      expect((await mcp.submitOAuthCallback(fx.memo.jobId, { code: 'c', state: 's' })).status).toBe(
        'completed',
      ),
  },
  settings: {
    agentSchema: async (settings) => expect(typeof (await settings.agentSchema())).toBe('object'),
    conversationSchema: async (settings) =>
      expect(typeof (await settings.conversationSchema())).toBe('object'),
    get: async (settings) => expect((await settings.get()).llm_api_key_is_set).toBe(false),
    update: async (settings) => {
      const updated = await settings.update({ agent_settings_diff: { llm: { api_key: 'sk-settings-key' } } });
      expect(updated.llm_api_key_is_set).toBe(true);
      expect(JSON.stringify(updated)).not.toContain('sk-settings-key');
    },
    addMcpServer: (settings) => settings.addMcpServer('fs', { command: 'mcp-fs', args: [] }),
    patchMcpServer: (settings) => settings.patchMcpServer('fs', { args: ['--ro'] }),
    deleteMcpServer: (settings) => settings.deleteMcpServer('fs'),
  },
  secrets: {
    put: async (secrets) =>
      expect((await secrets.put({ name: 'TOKEN', value: 'sk-secret-value' })).name).toBe('TOKEN'),
    list: async (secrets) =>
      expect((await secrets.list()).map((s: { name: string }) => s.name)).toEqual(['TOKEN']),
    getValue: async (secrets) => expect(await secrets.getValue('TOKEN')).toBe('sk-secret-value'),
    delete: async (secrets) => {
      await secrets.delete('TOKEN');
      expect(await secrets.list()).toEqual([]);
    },
  },
  profiles: {
    save: (profiles) => profiles.save('fast', { llm: { model: 'openai/x', api_key: 'sk-profile-key' } }),
    list: async (profiles) =>
      expect((await profiles.list()).profiles.map((p: { name: string }) => p.name)).toEqual(['fast']),
    // The real server answers the key as null without X-Expose-Secrets (profiles_router.py, 1.31.1-1.58.2).
    get: async (profiles) => expect((await profiles.get('fast')).config.api_key).toBeNull(),
    validate: async (profiles) => {
      expect((await profiles.validate('fast', { llm: { model: 'openai/x', api_key: 'sk-v' } })).valid).toBe(
        true,
      );
      expect((await profiles.validate('fast', { llm: { model: 'openai/x' } })).error).toMatchObject({
        type: expect.any(String),
      });
    },
    rename: (profiles) => profiles.rename('fast', 'quick'),
    activate: async (profiles) => expect((await profiles.activate('quick')).llm_applied).toBe(true),
    delete: (profiles) => profiles.delete('quick'),
  },
  agentProfiles: {
    save: async (agentProfiles) => {
      await expect(agentProfiles.save('coder', { agent_kind: 'openhands' })).rejects.toSatisfy(
        isUnprocessableEntityError,
      );
      await agentProfiles.save('coder', { agent_kind: 'openhands', llm_profile_ref: 'fast' });
    },
    list: async (agentProfiles, fx) => {
      const listed = await agentProfiles.list();
      // A fresh server has `default`, active; then the one saved here.
      expect(listed.profiles.map((profile: { name: string }) => profile.name)).toEqual(['default', 'coder']);
      expect(listed.active_agent_profile_id).toBe(listed.profiles[0]?.id);
      fx.memo.profileId = listed.profiles[1]?.id;
    },
    get: async (agentProfiles) => expect((await agentProfiles.get('coder')).name).toBe('coder'),
    rename: (agentProfiles) => agentProfiles.rename('coder', 'builder'),
    activate: (agentProfiles, fx) => agentProfiles.activate(fx.memo.profileId),
    materialize: async (agentProfiles) =>
      expect((await agentProfiles.materialize('builder')).valid).toBe(true),
    delete: (agentProfiles) => agentProfiles.delete('builder'),
  },
  metaProfiles: {
    save: (metaProfiles) => metaProfiles.save('team', { profiles: [] }),
    list: async (metaProfiles) => expect((await metaProfiles.list()).meta_profiles).toHaveLength(1),
    get: async (metaProfiles) => expect((await metaProfiles.get('team')).name).toBe('team'),
    activate: (metaProfiles) => metaProfiles.activate('team'),
    delete: (metaProfiles) => metaProfiles.delete('team'),
  },
  workspaces: {
    add: async (workspaces) =>
      expect(
        (await workspaces.add([{ id: 'w1', name: 'doubles', path: ROOT }])).workspaces.map(
          (w: { path: string }) => w.path,
        ),
      ).toEqual([ROOT]),
    list: async (workspaces) => expect((await workspaces.list()).workspaces).toHaveLength(1),
    delete: async (workspaces) => {
      await workspaces.delete(ROOT);
      expect((await workspaces.list()).workspaces).toEqual([]);
    },
    addParents: async (workspaces) =>
      expect(
        (await workspaces.addParents([{ id: 'p1', name: 'all', path: '/workspace' }])).workspaceParents,
      ).toHaveLength(1),
    deleteParent: async (workspaces) => {
      await workspaces.deleteParent('/workspace');
      expect((await workspaces.list()).workspaceParents).toEqual([]);
    },
  },
  llm: {
    providers: async (llm) => expect((await llm.providers()).providers).toContain('openai'),
    models: async (llm) =>
      expect((await llm.models({ provider: 'openai' })).models).toEqual(['openai/gpt-5']),
    verifiedModels: async (llm) => expect(typeof (await llm.verifiedModels()).models).toBe('object'),
    subscriptionModels: async (llm) =>
      expect((await llm.subscriptionModels()).models.length).toBeGreaterThan(0),
    subscriptionStatus: async (llm) => expect((await llm.subscriptionStatus()).connected).toBe(false),
    startDeviceLogin: async (llm, fx) => {
      fx.memo.deviceCode = (await llm.startDeviceLogin()).device_code;
    },
    pollDeviceLogin: async (llm, fx) =>
      expect((await llm.pollDeviceLogin(fx.memo.deviceCode)).connected).toBe(true),
    logout: async (llm) => expect((await llm.logout()).connected).toBe(false),
    discoverAcpModels: async (llm) =>
      expect(
        (await llm.discoverAcpModels({ agent_settings: { agent_kind: 'acp' } })).available_models.length,
      ).toBeGreaterThan(0),
    createConnection: async (llm, fx) => {
      const made = await llm.createConnection({
        display_name: 'Mine',
        api_key: 'sk-conn-key',
        provider: 'openai',
      });
      expect(made.api_key_set).toBe(true);
      fx.memo.connectionId = made.id;
    },
    listConnections: async (llm) => expect(await llm.listConnections()).toHaveLength(1),
    updateConnection: async (llm, fx) =>
      expect(
        (await llm.updateConnection(fx.memo.connectionId, { display_name: 'Renamed' })).display_name,
      ).toBe('Renamed'),
    deleteConnection: (llm, fx) => llm.deleteConnection(fx.memo.connectionId),
  },
  openai: {
    models: async (openai) => expect((await openai.models()).data.length).toBeGreaterThan(0),
    chatCompletions: async (openai) => {
      const answer = await openai.chatCompletions({
        model: 'simulated/model',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(answer.choices[0].message.content).toBe('Echo: hi');
    },
    responses: async (openai) =>
      expect((await openai.responses({ model: 'simulated/model', input: 'hi' })).status).toBe('completed'),
  },
  auth: {
    createWorkspaceSession: (auth) => auth.createWorkspaceSession(),
    deleteWorkspaceSession: (auth) => auth.deleteWorkspaceSession(),
  },
};

/** The conversation-runtime variants (`/api/conversations/{id}/file|bash|git|vscode/…`). */
const RUNTIME_ROOT = '/workspace/runtime';
const RUNTIME_RECIPES: Record<string, Record<string, Recipe>> = {
  files: filesRecipes(RUNTIME_ROOT),
  bash: bashRecipes(RUNTIME_ROOT),
  git: gitRecipes(RUNTIME_ROOT),
  vscode: VSCODE,
};

describe('every AgentServerClient method against the simulator', () => {
  let sim: MswSimulator;
  let client: AgentServerClient;
  let conversationId: string;

  beforeAll(async () => {
    sim = await startSimulator({ mode: 'msw', onUnhandledRequest: 'error' });
    client = new AgentServerClient({
      baseUrl: sim.info.agentServer.url,
      sessionApiKey: sim.info.agentServer.sessionApiKey,
      logLevel: 'off',
    });
    const conversation = client.conversation((await client.conversations.create(conversationBody)).id);
    conversationId = conversation.id;
    expect((await conversation.ask('hello', { timeout: 10_000 })).status).toBe('finished');
  });

  afterAll(async () => {
    await sim?.close();
  });

  const namespaces = Object.entries(
    new AgentServerClient({ baseUrl: 'http://unused', logLevel: 'off' }),
  ).filter(([, value]) => typeof value === 'object' && value !== null);

  it('has a recipe for every method of every namespace (a new method needs a double and a recipe)', () => {
    const missing: string[] = [];
    for (const [name, api] of namespaces) {
      for (const method of methodsOf(api)) if (!RECIPES[name]?.[method]) missing.push(`${name}.${method}`);
    }
    const handle = new AgentServerClient({ baseUrl: 'http://unused', logLevel: 'off' }).conversation(
      crypto.randomUUID(),
    );
    for (const name of ['files', 'bash', 'git', 'vscode'] as const) {
      for (const method of methodsOf(handle[name]))
        if (!RUNTIME_RECIPES[name]?.[method]) missing.push(`conversation.${name}.${method}`);
    }
    expect(missing).toEqual([]);
    expect(namespaces.map(([name]) => name).sort()).toEqual(Object.keys(RECIPES).sort());
  });

  for (const [name, recipes] of Object.entries(RECIPES)) {
    it(`${name}: every method succeeds and decodes`, async () => {
      const fx: Fixture = { client, conversationId, memo: {} };
      const api = (client as unknown as Record<string, Api>)[name];
      for (const [method, recipe] of Object.entries(recipes)) {
        await recipe(api, fx).catch((error: unknown) => {
          throw new Error(`${name}.${method}: ${error instanceof Error ? error.message : String(error)}`, {
            cause: error,
          });
        });
      }
    });
  }

  for (const [name, recipes] of Object.entries(RUNTIME_RECIPES)) {
    it(`conversation.${name} (runtime routes): every method succeeds and decodes`, async () => {
      const fx: Fixture = { client, conversationId, memo: {} };
      const api = client.conversation(conversationId)[name as 'files'];
      for (const [method, recipe] of Object.entries(recipes)) {
        await recipe(api, fx).catch((error: unknown) => {
          throw new Error(
            `conversation.${name}.${method}: ${error instanceof Error ? error.message : String(error)}`,
            {
              cause: error,
            },
          );
        });
      }
    });
  }
});

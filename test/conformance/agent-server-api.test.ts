// AgentServerClient against the real agent server (newest provisioned version): files round-tripped byte for
// byte (a binary of several MB, server-wide and through the conversation runtime), a bash command's output,
// the final answer, fork, interrupt mid-run, and one call into every other namespace.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentServerClient, isNotFoundError, isRequestValidationError } from '../../src/index.js';
import { newestVersion, requirePeer } from '../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, finish, startFakeLlm, terminal } from './support/fake-llm.js';
import { runScenario, settle, startBody } from './support/scenarios.js';

const version = process.env.CONFORMANCE_VERSIONS?.split(',')[0] ?? newestVersion('agent-server');
const venv = requirePeer('agent-server', version);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(venv === undefined)(`AgentServerClient against the real agent server ${version}`, () => {
  let server: RealAgentServer;
  let llm: FakeLlm;
  let client: AgentServerClient;

  beforeAll(async () => {
    llm = await startFakeLlm();
    server = await startRealAgentServer(venv as string, version);
    client = new AgentServerClient({
      baseUrl: server.url,
      sessionApiKey: server.sessionApiKey,
      logLevel: 'off',
    });
  });

  afterAll(async () => {
    await server?.close();
    await llm?.close();
  });

  it('files: a 5 MB binary and a text file round-trip byte for byte; errors are typed', async () => {
    const binary = new Uint8Array(randomBytes(5 * 1024 * 1024 + 7));
    binary.set([0x00, 0xff, 0xfe, 0x80, 0x0a, 0x0d], 0); // bytes that break a text decode
    const path = `${server.workspaceDir}/upload/data.bin`;
    const uploaded = await client.files.upload(path, binary);
    expect(uploaded.file_size).toBe(binary.byteLength);
    const back = await client.files.download(path);
    expect(back.byteLength).toBe(binary.byteLength);
    expect(sha(back)).toBe(sha(binary));

    const hash = createHash('sha256');
    let streamed = 0;
    for await (const chunk of await client.files.downloadStream(path)) {
      hash.update(chunk);
      streamed += chunk.byteLength;
    }
    expect([streamed, hash.digest('hex')]).toEqual([binary.byteLength, sha(binary)]);

    const blob = await client.files.downloadBlob(path);
    expect(sha(new Uint8Array(await blob.arrayBuffer()))).toBe(sha(binary));

    await client.files.upload(`${server.workspaceDir}/hello.txt`, 'héllo\n');
    expect(await client.files.downloadText(`${server.workspaceDir}/hello.txt`)).toBe('héllo\n');
    const stream = new Blob([binary.subarray(0, 1000)]).stream();
    await client.files.upload(`${server.workspaceDir}/stream.bin`, stream);
    expect(sha(await client.files.download(`${server.workspaceDir}/stream.bin`))).toBe(
      sha(binary.subarray(0, 1000)),
    );

    await expect(client.files.download(`${server.workspaceDir}/missing.bin`)).rejects.toSatisfy(
      isNotFoundError,
    );
    await expect(client.files.download('relative/path')).rejects.toSatisfy(isRequestValidationError);

    await client.files.createDirectory(`${server.workspaceDir}/made/here`);
    const subdirs = await client.files.searchSubdirectories(`${server.workspaceDir}`);
    expect(subdirs.items.map((item) => item.name)).toEqual(expect.arrayContaining(['made', 'upload']));
    expect((await client.files.home()).home).toEqual(expect.any(String));
    const tar = await client.files.archive(`${server.workspaceDir}/upload`, { format: 'tar.gz' });
    expect([tar[0], tar[1]]).toEqual([0x1f, 0x8b]); // gzip magic
  });

  it('bash: execute returns output and exit code; start + output streams the chunks of a command', async () => {
    const done = await client.bash.execute({ command: 'echo out; echo err >&2; exit 3', timeout: 20 });
    expect(done).toMatchObject({ kind: 'BashOutput', exit_code: 3, stdout: 'out\n', stderr: 'err\n' });

    const started = await client.bash.start({ command: 'for i in 1 2 3; do echo line$i; sleep 0.2; done' });
    expect(started.kind).toBe('BashCommand');
    let chunks = await client.bash.output(started.id);
    for (let i = 0; i < 50 && !chunks.some((c) => c.exit_code !== null && c.exit_code !== undefined); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      chunks = await client.bash.output(started.id);
    }
    expect(chunks.map((c) => c.stdout ?? '').join('')).toBe('line1\nline2\nline3\n');
    expect(chunks.at(-1)?.exit_code).toBe(0);
    const one = await client.bash.get(started.id);
    expect(one).toMatchObject({ kind: 'BashCommand', id: started.id });
    const commands: string[] = [];
    for await (const event of client.bash.search({ kind: 'BashCommand', limit: 1 })) commands.push(event.id);
    expect(commands).toContain(started.id);
  });

  it('a conversation: ask → final answer; its runtime files, bash and git; trajectory; fork', async () => {
    llm.script([
      { toolCalls: [terminal('echo from-agent > made.txt')] },
      { toolCalls: [finish('The answer is 42.')] },
      { toolCalls: [finish('Second answer.')] },
    ]);
    const body = startBody(server, llm);
    const { initial_message: _initial, ...noMessage } = body;
    const info = await client.conversations.create(noMessage);
    const conversation = client.conversation(info.id);
    const result = await conversation.ask('go', { timeout: 60_000 });
    expect(result).toEqual({ status: 'finished', response: 'The answer is 42.' });
    expect(await client.conversations.finalResponse(info.id)).toBe('The answer is 42.');
    // A second turn on the same conversation waits for its own run, not the first one's `finished`.
    expect(await conversation.ask('again', { timeout: 60_000 })).toEqual({
      status: 'finished',
      response: 'Second answer.',
    });

    const made = await conversation.files.downloadText(`${server.workspaceDir}/made.txt`);
    expect(made).toBe('from-agent\n');
    const binary = new Uint8Array(randomBytes(3 * 1024 * 1024));
    await conversation.files.upload(`${server.workspaceDir}/runtime.bin`, binary);
    expect(sha(await conversation.files.download(`${server.workspaceDir}/runtime.bin`))).toBe(sha(binary));
    expect(sha(await client.conversations.workspaceFile(info.id, 'runtime.bin'))).toBe(sha(binary));
    const pwd = await conversation.bash.execute('pwd');
    expect(pwd.stdout?.trim()).toBe(server.workspaceDir);
    const zip = await conversation.downloadTrajectory();
    expect([zip[0], zip[1]]).toEqual([0x50, 0x4b]); // "PK"

    const fork = await conversation.fork({ title: 'forked' });
    expect(fork.id).not.toBe(info.id);
    const forked = await fork.info();
    expect(forked.title).toBe('forked');
    expect(await fork.finalResponse()).toBe('Second answer.');
    const many = await client.conversations.getMany([
      info.id,
      fork.id,
      '00000000-0000-0000-0000-000000000000',
    ]);
    expect(many.map((item) => item?.id ?? null)).toEqual([info.id, fork.id, null]);
    await client.conversations.update(fork.id, { tags: { team: 'sdk' } });
  });

  it('interrupt stops a run mid-way while the agent waits on its LLM', async () => {
    llm.script([{ toolCalls: [terminal('echo one')] }, { toolCalls: [finish('never reached')] }]);
    llm.hold();
    const { id } = await client.conversations.create(startBody(server, llm));
    try {
      await llm.waitForRequests(1, 30_000);
      expect((await client.conversations.get(id)).execution_status).toBe('running');
      await client.conversation(id).interrupt();
    } finally {
      llm.release();
    }
    const status = await settle(server, id, 30_000);
    expect(status).not.toBe('running');
    expect(await client.conversations.finalResponse(id)).not.toBe('never reached');
  });

  it("git: changes, diff, commits and a commit's changes of a repository the shell made", async () => {
    const repo = `${server.workspaceDir}/repo`;
    const setup = await client.bash.execute({
      command: [
        `mkdir -p ${repo}`,
        `cd ${repo}`,
        'git init -q -b main',
        'git config user.email sdk@example.com',
        'git config user.name SDK',
        'printf "one\\n" > a.txt',
        'git add a.txt',
        'git commit -q -m first',
        'printf "two\\n" > a.txt',
        'printf "new\\n" > b.txt',
      ].join(' && '),
      timeout: 30,
    });
    expect(setup.exit_code, setup.stderr ?? '').toBe(0);
    const changes = await client.git.changes(repo, { ref: 'HEAD' });
    expect(changes).toEqual(
      expect.arrayContaining([
        { status: 'UPDATED', path: 'a.txt' },
        { status: 'ADDED', path: 'b.txt' },
      ]),
    );
    const diff = await client.git.diff(`${repo}/a.txt`, { ref: 'HEAD' });
    // The real server gives the texts without their final newline.
    expect(diff).toMatchObject({ original: 'one', modified: 'two' });
    const commits = await client.git.commits(repo);
    expect(commits.commits.map((commit) => commit.subject)).toEqual(['first']);
    const first = commits.commits[0]?.sha as string;
    expect(await client.git.commitChanges(first, repo)).toEqual([{ status: 'ADDED', path: 'a.txt' }]);
  });

  it('conversation extras, auth, mcp, profiles and workspaces round trips', async () => {
    const run = await runScenario(server, llm, [{ toolCalls: [finish('done')] }]);
    const id = run.id;
    llm.script([{ text: 'A side answer.' }]);
    expect(await client.conversations.askAgent(id, 'what did you do?')).toEqual(expect.any(String));
    expect((await client.conversations.runtime(id)).runtime_status).toEqual(expect.any(String));
    await client.conversations.updateSecrets(id, { EXTRA_TOKEN: 'sk-extra-secret-1' });
    await client.conversations.setSecurityAnalyzer(id, null);
    await client.conversations.switchLlm(id, {
      model: 'openai/other',
      api_key: 'sk-other',
      base_url: llm.baseUrl,
    });
    const navigated = await client.conversations.navigate(id, null);
    expect(navigated.id).toBe(id);

    await client.auth.createWorkspaceSession();
    await client.auth.deleteWorkspaceSession();

    const failure = await client.mcp.test({
      server: { type: 'stdio', command: 'definitely-not-a-command' },
      timeout: 5,
    });
    expect(failure).toMatchObject({ ok: false, error_kind: expect.any(String) });

    await client.profiles.save('conformance', { llm: { model: 'openai/x', api_key: 'sk-profile-secret' } });
    expect((await client.profiles.list()).profiles.map((profile) => profile.name)).toContain('conformance');
    expect(await client.profiles.get('conformance')).toEqual(expect.any(Object));
    await client.profiles.rename('conformance', 'conformance-2');
    await client.profiles.delete('conformance-2');
    expect((await client.profiles.list()).profiles.map((profile) => profile.name)).not.toContain(
      'conformance-2',
    );

    const added = await client.workspaces.add([{ id: 'w1', name: 'ws', path: server.workspaceDir }]);
    expect(added.workspaces.map((workspace) => workspace.path)).toContain(server.workspaceDir);
    expect(await client.workspaces.delete(server.workspaceDir)).toMatchObject({
      id: server.workspaceDir,
      deleted: true,
    });
    await expect(client.profiles.get('no-such-profile')).rejects.toSatisfy(isNotFoundError);
  });

  it('every other namespace answers with its typed shape', async () => {
    const run = await runScenario(server, llm, [{ toolCalls: [finish('ok')] }]);
    expect(run.status).toBe('finished');
    expect((await client.server.health()).status).toEqual(expect.any(String));
    expect((await client.server.alive()).status).toEqual(expect.any(String));
    expect((await client.server.info()).version).toBe(version);
    expect((await client.server.root()).version).toBe(version);
    // Not started with deferred init: the real server answers /api/init with 404.
    await expect(client.server.initStatus()).rejects.toSatisfy(isNotFoundError);
    expect(await client.tools.list()).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(Array.isArray((await client.tools.catalog()).tools)).toBe(true);
    expect(await client.vscode.url()).toBeNull(); // OH_ENABLE_VSCODE=false
    expect(typeof (await client.vscode.status())).toBe('object');
    expect(Array.isArray((await client.workspaces.list()).workspaces)).toBe(true);
    expect(Array.isArray((await client.profiles.list()).profiles)).toBe(true);
    expect(Array.isArray((await client.agentProfiles.list()).profiles)).toBe(true);
    expect(Array.isArray((await client.metaProfiles.list()).meta_profiles)).toBe(true);
    expect(Array.isArray(await client.secrets.list())).toBe(true);
    await client.secrets.put({ name: 'CONFORMANCE_TOKEN', value: 'sk-conformance-secret-value' });
    expect((await client.secrets.list()).map((s) => s.name)).toContain('CONFORMANCE_TOKEN');
    expect(await client.secrets.getValue('CONFORMANCE_TOKEN')).toBe('sk-conformance-secret-value');
    await client.secrets.delete('CONFORMANCE_TOKEN');
    expect(typeof (await client.settings.get()).llm_api_key_is_set).toBe('boolean');
    expect(typeof (await client.settings.agentSchema())).toBe('object');
    expect(Array.isArray((await client.skills.load({ load_public: false, load_user: false })).skills)).toBe(
      true,
    );
    expect(typeof (await client.skills.listInstalled())).toBe('object');
    expect(typeof (await client.plugins.listInstalled())).toBe('object');
    expect(typeof (await client.canvasExtensions.listInstalled())).toBe('object');
    expect(await client.hooks.load({ projectDir: server.workspaceDir })).toBeNull();
    expect(typeof (await client.llm.providers())).toBe('object');
    expect(Array.isArray(await client.llm.listConnections())).toBe(true);
    expect(Array.isArray(await client.git.changes(server.workspaceDir).catch(() => []))).toBe(true);
    const raw = await client.request<string[]>({ method: 'GET', path: '/api/tools/' });
    expect(raw).toEqual(await client.tools.list());
  });
});

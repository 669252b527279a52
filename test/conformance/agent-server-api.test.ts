// AgentServerClient against the real agent server (newest provisioned version): files round-tripped byte for
// byte (a binary of several MB, server-wide and through the conversation runtime), a bash command's output,
// the final answer, fork, interrupt mid-run, and one call into every other namespace.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isNotFoundError, isRequestValidationError } from '../../src/index.js';
import { finish, terminal } from './support/fake-llm.js';
import { oneAgentServer, useAgentServer } from './support/one-agent-server.js';
import { runScenario, settle, startBody } from './support/scenarios.js';

const target = oneAgentServer();
const { version, venv } = target;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(venv === undefined)(`AgentServerClient against the real agent server ${version}`, () => {
  const real = useAgentServer(target);

  it('files: a 5 MB binary and a text file round-trip byte for byte; errors are typed', async () => {
    const binary = new Uint8Array(randomBytes(5 * 1024 * 1024 + 7));
    binary.set([0x00, 0xff, 0xfe, 0x80, 0x0a, 0x0d], 0); // bytes that break a text decode
    const path = `${real.server.workspaceDir}/upload/data.bin`;
    const uploaded = await real.client.files.upload(path, binary);
    expect(uploaded.file_size).toBe(binary.byteLength);
    const back = await real.client.files.download(path);
    expect(back.byteLength).toBe(binary.byteLength);
    expect(sha(back)).toBe(sha(binary));

    const hash = createHash('sha256');
    let streamed = 0;
    for await (const chunk of await real.client.files.downloadStream(path)) {
      hash.update(chunk);
      streamed += chunk.byteLength;
    }
    expect([streamed, hash.digest('hex')]).toEqual([binary.byteLength, sha(binary)]);

    const blob = await real.client.files.downloadBlob(path);
    expect(sha(new Uint8Array(await blob.arrayBuffer()))).toBe(sha(binary));

    await real.client.files.upload(`${real.server.workspaceDir}/hello.txt`, 'héllo\n');
    expect(await real.client.files.downloadText(`${real.server.workspaceDir}/hello.txt`)).toBe('héllo\n');
    const stream = new Blob([binary.subarray(0, 1000)]).stream();
    await real.client.files.upload(`${real.server.workspaceDir}/stream.bin`, stream);
    expect(sha(await real.client.files.download(`${real.server.workspaceDir}/stream.bin`))).toBe(
      sha(binary.subarray(0, 1000)),
    );

    await expect(real.client.files.download(`${real.server.workspaceDir}/missing.bin`)).rejects.toSatisfy(
      isNotFoundError,
    );
    await expect(real.client.files.download('relative/path')).rejects.toSatisfy(isRequestValidationError);

    await real.client.files.createDirectory(`${real.server.workspaceDir}/made/here`);
    const subdirs = await real.client.files.searchSubdirectories(`${real.server.workspaceDir}`);
    expect(subdirs.items.map((item) => item.name)).toEqual(expect.arrayContaining(['made', 'upload']));
    expect((await real.client.files.home()).home).toEqual(expect.any(String));
    const tar = await real.client.files.archive(`${real.server.workspaceDir}/upload`, { format: 'tar.gz' });
    expect([tar[0], tar[1]]).toEqual([0x1f, 0x8b]); // gzip magic
  });

  it('bash: execute returns output and exit code; start + output streams the chunks of a command', async () => {
    const done = await real.client.bash.execute({ command: 'echo out; echo err >&2; exit 3', timeout: 20 });
    expect(done).toMatchObject({ kind: 'BashOutput', exit_code: 3, stdout: 'out\n', stderr: 'err\n' });

    const started = await real.client.bash.start({
      command: 'for i in 1 2 3; do echo line$i; sleep 0.2; done',
    });
    expect(started.kind).toBe('BashCommand');
    let chunks = await real.client.bash.output(started.id);
    for (let i = 0; i < 50 && !chunks.some((c) => c.exit_code !== null && c.exit_code !== undefined); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      chunks = await real.client.bash.output(started.id);
    }
    expect(chunks.map((c) => c.stdout ?? '').join('')).toBe('line1\nline2\nline3\n');
    expect(chunks.at(-1)?.exit_code).toBe(0);
    const one = await real.client.bash.get(started.id);
    expect(one).toMatchObject({ kind: 'BashCommand', id: started.id });
    const commands: string[] = [];
    for await (const event of real.client.bash.search({ kind: 'BashCommand', limit: 1 }))
      commands.push(event.id);
    expect(commands).toContain(started.id);
  });

  it('a conversation: ask → final answer; its runtime files, bash and git; trajectory; fork', async () => {
    real.llm.script([
      { toolCalls: [terminal('echo from-agent > made.txt')] },
      { toolCalls: [finish('The answer is 42.')] },
      { toolCalls: [finish('Second answer.')] },
    ]);
    const body = startBody(real.server, real.llm);
    const { initial_message: _initial, ...noMessage } = body;
    const info = await real.client.conversations.create(noMessage);
    const conversation = real.client.conversation(info.id);
    const result = await conversation.ask('go', { timeout: 60_000 });
    expect(result).toEqual({ status: 'finished', response: 'The answer is 42.' });
    expect(await real.client.conversations.finalResponse(info.id)).toBe('The answer is 42.');
    // A second turn on the same conversation waits for its own run, not the first one's `finished`.
    expect(await conversation.ask('again', { timeout: 60_000 })).toEqual({
      status: 'finished',
      response: 'Second answer.',
    });

    const made = await conversation.files.downloadText(`${real.server.workspaceDir}/made.txt`);
    expect(made).toBe('from-agent\n');
    const binary = new Uint8Array(randomBytes(3 * 1024 * 1024));
    await conversation.files.upload(`${real.server.workspaceDir}/runtime.bin`, binary);
    expect(sha(await conversation.files.download(`${real.server.workspaceDir}/runtime.bin`))).toBe(
      sha(binary),
    );
    expect(sha(await real.client.conversations.workspaceFile(info.id, 'runtime.bin'))).toBe(sha(binary));
    const pwd = await conversation.bash.execute('pwd');
    expect(pwd.stdout?.trim()).toBe(real.server.workspaceDir);
    const zip = await conversation.downloadTrajectory();
    expect([zip[0], zip[1]]).toEqual([0x50, 0x4b]); // "PK"

    const fork = await conversation.fork({ title: 'forked' });
    expect(fork.id).not.toBe(info.id);
    const forked = await fork.info();
    expect(forked.title).toBe('forked');
    expect(await fork.finalResponse()).toBe('Second answer.');
    const many = await real.client.conversations.getMany([
      info.id,
      fork.id,
      '00000000-0000-0000-0000-000000000000',
    ]);
    expect(many.map((item) => item?.id ?? null)).toEqual([info.id, fork.id, null]);
    await real.client.conversations.update(fork.id, { tags: { team: 'sdk' } });
  });

  it('interrupt stops a run mid-way while the agent waits on its LLM', async () => {
    real.llm.script([{ toolCalls: [terminal('echo one')] }, { toolCalls: [finish('never reached')] }]);
    real.llm.hold();
    const { id } = await real.client.conversations.create(startBody(real.server, real.llm));
    try {
      await real.llm.waitForRequests(1, 30_000);
      expect((await real.client.conversations.get(id)).execution_status).toBe('running');
      await real.client.conversation(id).interrupt();
    } finally {
      real.llm.release();
    }
    const status = await settle(real.server, id, 30_000);
    expect(status).not.toBe('running');
    expect(await real.client.conversations.finalResponse(id)).not.toBe('never reached');
  });

  it("git: changes, diff, commits and a commit's changes of a repository the shell made", async () => {
    const repo = `${real.server.workspaceDir}/repo`;
    const setup = await real.client.bash.execute({
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
    const changes = await real.client.git.changes(repo, { ref: 'HEAD' });
    expect(changes).toEqual(
      expect.arrayContaining([
        { status: 'UPDATED', path: 'a.txt' },
        { status: 'ADDED', path: 'b.txt' },
      ]),
    );
    const diff = await real.client.git.diff(`${repo}/a.txt`, { ref: 'HEAD' });
    // The real server gives the texts without their final newline.
    expect(diff).toMatchObject({ original: 'one', modified: 'two' });
    const commits = await real.client.git.commits(repo);
    expect(commits.commits.map((commit) => commit.subject)).toEqual(['first']);
    const first = commits.commits[0]?.sha as string;
    expect(await real.client.git.commitChanges(first, repo)).toEqual([{ status: 'ADDED', path: 'a.txt' }]);
  });

  it('conversation extras, auth, mcp, profiles and workspaces round trips', async () => {
    const run = await runScenario(real.server, real.llm, [{ toolCalls: [finish('done')] }]);
    const id = run.id;
    real.llm.script([{ text: 'A side answer.' }]);
    expect(await real.client.conversations.askAgent(id, 'what did you do?')).toEqual(expect.any(String));
    expect((await real.client.conversations.runtime(id)).runtime_status).toEqual(expect.any(String));
    await real.client.conversations.updateSecrets(id, { EXTRA_TOKEN: 'sk-extra-secret-1' });
    await real.client.conversations.setSecurityAnalyzer(id, null);
    await real.client.conversations.switchLlm(id, {
      model: 'openai/other',
      api_key: 'sk-other',
      base_url: real.llm.baseUrl,
    });
    const navigated = await real.client.conversations.navigate(id, null);
    expect(navigated.id).toBe(id);

    await real.client.auth.createWorkspaceSession();
    await real.client.auth.deleteWorkspaceSession();

    const failure = await real.client.mcp.test({
      server: { type: 'stdio', command: 'definitely-not-a-command' },
      timeout: 5,
    });
    expect(failure).toMatchObject({ ok: false, error_kind: expect.any(String) });

    await real.client.profiles.save('conformance', {
      llm: { model: 'openai/x', api_key: 'sk-profile-secret' },
    });
    expect((await real.client.profiles.list()).profiles.map((profile) => profile.name)).toContain(
      'conformance',
    );
    expect(await real.client.profiles.get('conformance')).toEqual(expect.any(Object));
    await real.client.profiles.rename('conformance', 'conformance-2');
    await real.client.profiles.delete('conformance-2');
    expect((await real.client.profiles.list()).profiles.map((profile) => profile.name)).not.toContain(
      'conformance-2',
    );

    const added = await real.client.workspaces.add([
      { id: 'w1', name: 'ws', path: real.server.workspaceDir },
    ]);
    expect(added.workspaces.map((workspace) => workspace.path)).toContain(real.server.workspaceDir);
    expect(await real.client.workspaces.delete(real.server.workspaceDir)).toMatchObject({
      id: real.server.workspaceDir,
      deleted: true,
    });
    await expect(real.client.profiles.get('no-such-profile')).rejects.toSatisfy(isNotFoundError);
  });

  it('every other namespace answers with its typed shape', async () => {
    const run = await runScenario(real.server, real.llm, [{ toolCalls: [finish('ok')] }]);
    expect(run.status).toBe('finished');
    expect((await real.client.server.health()).status).toEqual(expect.any(String));
    expect((await real.client.server.alive()).status).toEqual(expect.any(String));
    expect((await real.client.server.info()).version).toBe(version);
    expect((await real.client.server.root()).version).toBe(version);
    // Not started with deferred init: the real server answers /api/init with 404.
    await expect(real.client.server.initStatus()).rejects.toSatisfy(isNotFoundError);
    expect(await real.client.tools.list()).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(Array.isArray((await real.client.tools.catalog()).tools)).toBe(true);
    expect(await real.client.vscode.url()).toBeNull(); // OH_ENABLE_VSCODE=false
    expect(typeof (await real.client.vscode.status())).toBe('object');
    expect(Array.isArray((await real.client.workspaces.list()).workspaces)).toBe(true);
    expect(Array.isArray((await real.client.profiles.list()).profiles)).toBe(true);
    expect(Array.isArray((await real.client.agentProfiles.list()).profiles)).toBe(true);
    expect(Array.isArray((await real.client.metaProfiles.list()).meta_profiles)).toBe(true);
    expect(Array.isArray(await real.client.secrets.list())).toBe(true);
    await real.client.secrets.put({ name: 'CONFORMANCE_TOKEN', value: 'sk-conformance-secret-value' });
    expect((await real.client.secrets.list()).map((s) => s.name)).toContain('CONFORMANCE_TOKEN');
    expect(await real.client.secrets.getValue('CONFORMANCE_TOKEN')).toBe('sk-conformance-secret-value');
    await real.client.secrets.delete('CONFORMANCE_TOKEN');
    expect(typeof (await real.client.settings.get()).llm_api_key_is_set).toBe('boolean');
    expect(typeof (await real.client.settings.agentSchema())).toBe('object');
    expect(
      Array.isArray((await real.client.skills.load({ load_public: false, load_user: false })).skills),
    ).toBe(true);
    expect(typeof (await real.client.skills.listInstalled())).toBe('object');
    expect(typeof (await real.client.plugins.listInstalled())).toBe('object');
    expect(typeof (await real.client.canvasExtensions.listInstalled())).toBe('object');
    expect(await real.client.hooks.load({ projectDir: real.server.workspaceDir })).toBeNull();
    expect(typeof (await real.client.llm.providers())).toBe('object');
    expect(Array.isArray(await real.client.llm.listConnections())).toBe(true);
    expect(Array.isArray(await real.client.git.changes(real.server.workspaceDir).catch(() => []))).toBe(true);
    const raw = await real.client.request<string[]>({ method: 'GET', path: '/api/tools/' });
    expect(raw).toEqual(await real.client.tools.list());
  });
});

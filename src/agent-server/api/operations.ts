import { AGENT_PROFILES_OPERATIONS } from './agent-profiles.js';
import { AUTH_OPERATIONS } from './auth.js';
import { BASH_OPERATIONS } from './bash.js';
import { CANVAS_EXTENSIONS_OPERATIONS } from './canvas-extensions.js';
import { CONVERSATIONS_OPERATIONS } from './conversations.js';
import { EVENTS_OPERATIONS } from './events.js';
import { FILES_OPERATIONS } from './files.js';
import { GIT_OPERATIONS } from './git.js';
import { HOOKS_OPERATIONS } from './hooks.js';
import { LLM_OPERATIONS } from './llm.js';
import { MCP_OPERATIONS } from './mcp.js';
import { META_PROFILES_OPERATIONS } from './meta-profiles.js';
import { OPENAI_OPERATIONS } from './openai.js';
import type { OperationTable } from './operation.js';
import { PLUGINS_OPERATIONS } from './plugins.js';
import { PROFILES_OPERATIONS } from './profiles.js';
import { SECRETS_OPERATIONS } from './secrets.js';
import { SERVER_OPERATIONS } from './server.js';
import { SETTINGS_OPERATIONS } from './settings.js';
import { SKILLS_OPERATIONS } from './skills.js';
import { TOOLS_OPERATIONS } from './tools.js';
import { VSCODE_OPERATIONS } from './vscode.js';
import { WORKSPACES_OPERATIONS } from './workspaces.js';

/**
 * Every namespace of `AgentServerClient` and, for each method, the operation(s) of the server's OpenAPI
 * document it calls: the tables the namespaces themselves call through. The endpoint audit
 * (`test/agent-server/endpoint-audit.test.ts`) walks the committed document against this map.
 */
export const AGENT_SERVER_OPERATIONS: Readonly<Record<string, OperationTable>> = {
  server: SERVER_OPERATIONS,
  conversations: CONVERSATIONS_OPERATIONS,
  events: EVENTS_OPERATIONS,
  files: FILES_OPERATIONS,
  bash: BASH_OPERATIONS,
  git: GIT_OPERATIONS,
  vscode: VSCODE_OPERATIONS,
  tools: TOOLS_OPERATIONS,
  skills: SKILLS_OPERATIONS,
  plugins: PLUGINS_OPERATIONS,
  canvasExtensions: CANVAS_EXTENSIONS_OPERATIONS,
  hooks: HOOKS_OPERATIONS,
  mcp: MCP_OPERATIONS,
  settings: SETTINGS_OPERATIONS,
  secrets: SECRETS_OPERATIONS,
  profiles: PROFILES_OPERATIONS,
  agentProfiles: AGENT_PROFILES_OPERATIONS,
  metaProfiles: META_PROFILES_OPERATIONS,
  workspaces: WORKSPACES_OPERATIONS,
  llm: LLM_OPERATIONS,
  openai: OPENAI_OPERATIONS,
  auth: AUTH_OPERATIONS,
};

/**
 * Operations of the 1.58.0 document no typed method covers, each with its reason (also listed in
 * docs/agent-server-client.md, "Exclusions"). `client.request()` reaches them all the same.
 */
export const EXCLUDED_OPERATIONS: Readonly<Record<string, string>> = {
  'GET /api/conversations/{conversation_id}/events':
    'a GET with a JSON body (the event ids), which browsers and fetch cannot send; use events.get per id or events.search',
  'GET /api/bash/bash_events/':
    'a GET with a JSON body (the event ids), which browsers and fetch cannot send; use bash.get per id or bash.search',
  'GET /api/conversations/{runtime_conversation_id}/bash/bash_events/':
    'a GET with a JSON body (the event ids), which browsers and fetch cannot send; use bash.get per id or bash.search',
};

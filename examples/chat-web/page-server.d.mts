// Types of page-server.mjs, for the TypeScript tests that serve the page.
import type { ChatConfig } from './app.js';

export function buildChatScript(options?: { production?: boolean }): Promise<string>;
export function chatHtml(config: ChatConfig): string;
export function serveChatPage(options: {
  config: ChatConfig;
  host?: string;
  port?: number;
  production?: boolean;
}): Promise<{ url: string; close(): Promise<void> }>;

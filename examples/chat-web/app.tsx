// The chat page: one conversation of an agent server, live, in React (docs/react.md). Everything it shows
// comes from the view's snapshot (`useConversation`): the items, oldest first, the status and the connection.
import { AgentServerClient } from 'agent-platform-sdk';
import { useConversation } from 'agent-platform-sdk/react';
import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { Composer } from './composer.js';
import { ItemList } from './item-list.js';
import { StatusBar } from './status-bar.js';

/** Written into the page by page-server.mjs. */
export interface ChatConfig {
  agentServerUrl: string;
  sessionApiKey?: string;
  conversationId: string;
  pageSize?: number;
}

declare global {
  interface Window {
    __CHAT__: ChatConfig;
  }
}

function Chat({ config }: { config: ChatConfig }) {
  // One client for the page's life: a new one per render would reopen the view (it is part of the key).
  const client = useMemo(
    () =>
      new AgentServerClient({
        baseUrl: config.agentServerUrl,
        ...(config.sessionApiKey ? { sessionApiKey: config.sessionApiKey } : {}),
      }),
    [config.agentServerUrl, config.sessionApiKey],
  );
  const { view, snapshot } = useConversation(client, config.conversationId, {
    pageSize: config.pageSize ?? 20,
  });
  return (
    <main className="chat">
      <StatusBar snapshot={snapshot} />
      <ItemList snapshot={snapshot} view={view} />
      <Composer view={view} disabled={!snapshot.ready || snapshot.connection === 'closed'} />
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Chat config={window.__CHAT__} />
    </StrictMode>,
  );
}

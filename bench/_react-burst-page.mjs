// Runs in Chromium for bench/react-renders.ts: a ConversationView of the package (aliased to its build) shown by
// `useConversationView` in React's production build; counts commits (one per render that reached the DOM), the
// view's notifications and the animation frames they came in, on `window.__bench`.
import { AgentServerClient } from 'agent-platform-sdk';
import { useConversationView } from 'agent-platform-sdk/react';
import { createElement, useEffect } from 'react';
import { createRoot } from 'react-dom/client';

const config = window.__config;
const bench = { commits: 0, notifications: 0, items: 0, ready: false, frames: [] };
window.__bench = bench;
// The animation frame each notification came in (a frame counter advanced by requestAnimationFrame).
let frame = 0;
const tick = () => {
  frame += 1;
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);

const client = new AgentServerClient({ baseUrl: config.url, sessionApiKey: config.sessionApiKey });
const view = client.conversation(config.conversationId).view({ pageSize: 50 });
view.subscribe(() => {
  bench.notifications += 1;
  if (bench.frames.at(-1) !== frame) bench.frames.push(frame);
});

function List() {
  const snapshot = useConversationView(view);
  useEffect(() => {
    bench.commits += 1;
    bench.items = snapshot.items.length;
  });
  return createElement(
    'ol',
    null,
    snapshot.items.map((item) => createElement('li', { key: item.id }, item.text ?? item.type)),
  );
}

createRoot(document.getElementById('root')).render(createElement(List));
view.ready.then(() => {
  bench.ready = true;
});

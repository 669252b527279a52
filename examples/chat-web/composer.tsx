import type { ConversationViewApi } from 'agent-platform-sdk';
import { type FormEvent, useState } from 'react';

/** The message box. `send()` shows the message at once (pending); a failure shows on that item, with Retry. */
export function Composer({ view, disabled }: { view: ConversationViewApi | undefined; disabled: boolean }) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = text.trim();
    if (!view || message === '') return;
    setText('');
    // The pending item carries the outcome; the promise is for callers that want it.
    view.send(message).catch(() => {});
  };
  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        aria-label="Message"
        value={text}
        placeholder="Ask the agent…"
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) submit(event);
        }}
      />
      <button type="submit" disabled={disabled || text.trim() === ''}>
        Send
      </button>
    </form>
  );
}

import {
  type Event,
  isActionEvent,
  isAgentErrorEvent,
  isConversationErrorEvent,
  isMessageEvent,
  isObservationEvent,
  renderEvent,
} from '../index.js';

/**
 * One persisted event of a conversation item as one line of a terminal, by kind: actions with their tool and
 * command, observations with the exit code and a trimmed output, messages, errors (marked for red). State
 * updates make no item, so no line (the status line shows them). Built from the SDK's public exports only:
 * this is what an app's own live view would do.
 */
export interface EventLine {
  /** `action`, `observation`, `message`, `error` or `other`: decides the colour. */
  tone: 'action' | 'observation' | 'message' | 'error' | 'other';
  text: string;
}

export function eventLine(event: Event, width: number): EventLine {
  const time = typeof event.timestamp === 'string' ? clock(event.timestamp) : '--:--:--';
  const fitted = (text: string) => cut(oneLine(text), Math.max(20, width - time.length - 1));
  const line = (tone: EventLine['tone'], text: string): EventLine => ({
    tone,
    text: `${time} ${fitted(text)}`,
  });
  if (isAgentErrorEvent(event)) return line('error', `✗ ${event.tool_name} failed: ${event.error}`);
  if (isConversationErrorEvent(event))
    return line('error', `✗ conversation error ${event.code}: ${event.detail}`);
  if (isActionEvent(event)) return line('action', `→ ${event.tool_name} ${actionText(event.action)}`);
  if (isObservationEvent(event)) {
    const observation = event.observation as Record<string, unknown>;
    const exit = exitCode(observation);
    const error = observation.is_error === true ? ' error' : '';
    const shown = `← ${event.tool_name}${exit === undefined ? '' : `  exit ${exit}`}${error}  ${contentText(observation.content)}`;
    return line(exit !== undefined && exit !== 0 ? 'error' : 'observation', shown);
  }
  if (isMessageEvent(event)) {
    const who = event.source === 'agent' ? 'agent' : event.llm_message.role;
    return line('message', `${who}: ${contentText(event.llm_message.content)}`);
  }
  return line('other', renderEvent(event, { timestamp: false, maxTextLength: width }));
}

/** `$ ls -la` for a terminal command, the message of a finish, else the action's own fields. */
function actionText(action: unknown): string {
  if (typeof action !== 'object' || action === null) return '(not executable)';
  const fields = action as Record<string, unknown>;
  if (typeof fields.command === 'string' && fields.kind === 'TerminalAction') return `$ ${fields.command}`;
  if (typeof fields.command === 'string' && typeof fields.path === 'string')
    return `${fields.command} ${fields.path}`;
  if (typeof fields.message === 'string') return fields.message;
  if (typeof fields.thought === 'string') return `think: ${fields.thought}`;
  const { kind, ...rest } = fields;
  return `${String(kind)} ${JSON.stringify(rest)}`;
}

function exitCode(observation: Record<string, unknown>): number | undefined {
  if (typeof observation.exit_code === 'number') return observation.exit_code;
  const metadata = observation.metadata as { exit_code?: unknown } | undefined;
  return typeof metadata?.exit_code === 'number' && metadata.exit_code >= 0 ? metadata.exit_code : undefined;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part?.text === 'string' ? part.text : part?.type === 'image' ? '[image]' : ''))
    .join(' ');
}

/** `HH:MM:SS` of a server timestamp (naive local time, as the server writes it). */
function clock(timestamp: string): string {
  return /T(\d\d:\d\d:\d\d)/.exec(timestamp)?.[1] ?? timestamp.slice(0, 8);
}

/** Newlines as ` ⏎ ` and runs of blanks as one space, so one event stays on one line. */
export function oneLine(text: string): string {
  return text
    .trim()
    .replace(/\s*\n\s*/g, ' ⏎ ')
    .replace(/[ \t]+/g, ' ');
}

export function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

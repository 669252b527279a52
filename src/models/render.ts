/**
 * Plain-text rendering of events for logs and terminals. Never includes `encrypted_content`: reasoning
 * items are rendered by their summary only, and unknown values are redacted before they are shown.
 */
import { isKnownAction, isKnownEvent, isKnownObservation } from './guards.js';
import { redactEvent } from './redact.js';
import type { Action, ActionEvent, Event, KnownEvent, Observation } from './schemas.js';
import { getUnknownInfo, isRecord } from './unknown.js';

export interface RenderOptions {
  /** Longest text shown for one field before it is cut (default 2000 characters). */
  maxTextLength?: number;
  /** Start with the timestamp (default true). */
  timestamp?: boolean;
}

/** One event as text: `[timestamp] source Kind: details`. */
export function renderEvent(event: Event, options: RenderOptions = {}): string {
  const max = options.maxTextLength ?? 2000;
  const cut = (text: string) => truncate(text, max);
  const head: string[] = [];
  if (options.timestamp !== false && typeof event.timestamp === 'string') head.push(`[${event.timestamp}]`);
  if (typeof event.source === 'string') head.push(event.source);
  head.push(String(event.kind));
  const body = isKnownEvent(event) ? renderKnown(event, cut) : renderUnknown(event, cut);
  return body ? `${head.join(' ')}: ${body}` : head.join(' ');
}

type Cut = (text: string) => string;

function renderKnown(event: KnownEvent, cut: Cut): string {
  switch (event.kind) {
    case 'Condensation': {
      const parts = [`forgot ${event.forgotten_event_ids.length} event(s)`];
      if (event.summary) parts.push(`summary: ${cut(event.summary)}`);
      return parts.join('; ');
    }
    case 'CondensationRequest':
      return 'condensation requested';
    case 'CondensationSummaryEvent':
      return cut(event.summary);
    case 'ConversationErrorEvent':
      return `${event.code}: ${cut(event.detail)}`;
    case 'ConversationStateUpdateEvent':
      if (event.key === 'full_state' && isRecord(event.value)) {
        const status = event.value.execution_status;
        return `full_state${typeof status === 'string' ? ` (execution_status=${status})` : ''}`;
      }
      return `${event.key ?? '(no key)'} = ${cut(json(event.value))}`;
    case 'LLMCompletionLogEvent':
      return `${event.model_name} (${event.usage_id}) logged to ${event.filename}`;
    case 'ActionEvent':
      return renderActionEvent(event, cut);
    case 'MessageEvent': {
      const text = contentText(event.llm_message.content);
      const sender = event.sender ? ` from ${event.sender}` : '';
      return `${event.llm_message.role}${sender}: ${cut(text)}`;
    }
    case 'AgentErrorEvent':
      return `${event.tool_name} failed: ${cut(event.error)}`;
    case 'ObservationEvent':
      return `${event.tool_name} -> ${renderObservation(event.observation, cut)}`;
    case 'UserRejectObservation':
      return `${event.tool_name} rejected by ${event.rejection_source}: ${cut(event.rejection_reason)}`;
    case 'SystemPromptEvent': {
      const tools = event.tools.map((t) => (typeof t.title === 'string' ? t.title : String(t.kind)));
      const extra = event.dynamic_context
        ? ` + ${event.dynamic_context.text.length} characters of context`
        : '';
      return `system prompt of ${event.system_prompt.text.length} characters${extra}; tools: ${tools.join(', ') || 'none'}`;
    }
    case 'TokenEvent':
      return `${event.prompt_token_ids.length} prompt token(s), ${event.response_token_ids.length} response token(s)`;
    case 'PauseEvent':
      return 'paused';
    case 'InterruptEvent':
      return 'interrupted';
    case 'ServerErrorEvent':
      return `server error ${event.code}: ${cut(event.detail)}`;
    case 'ACPToolCallEvent':
      return `${event.title}${event.status ? ` (${event.status})` : ''}${event.is_error ? ' failed' : ''}`;
    case 'HookExecutionEvent': {
      const outcome = event.blocked ? 'blocked' : event.success ? 'ok' : `failed (exit ${event.exit_code})`;
      return `${event.hook_event_type} hook ${cut(event.hook_command)}: ${outcome}`;
    }
    case 'SecurityAnalysisEvent':
      return `${event.analyzer}: ${Object.entries(event.risks)
        .map(([id, risk]) => `${id}=${risk}`)
        .join(', ')}`;
    case 'StreamingDeltaEvent':
      return cut(`${event.reasoning_content ?? ''}${event.content ?? ''}`);
  }
}

function renderActionEvent(event: ActionEvent, cut: Cut): string {
  const lines: string[] = [];
  const risk = event.security_risk !== 'UNKNOWN' ? ` [risk ${event.security_risk}]` : '';
  const summary = event.summary ? ` - ${event.summary}` : '';
  lines.push(`${event.tool_name}${risk}${summary}`);
  const thought = contentText(event.thought);
  if (thought) lines.push(`  thought: ${cut(thought)}`);
  if (event.reasoning_content) lines.push(`  reasoning: ${cut(event.reasoning_content)}`);
  const reasoningSummary = event.responses_reasoning_item?.summary ?? [];
  if (reasoningSummary.length > 0) lines.push(`  reasoning summary: ${cut(reasoningSummary.join(' '))}`);
  if (event.action === null || event.action === undefined) lines.push('  (not executable)');
  else lines.push(`  ${renderAction(event.action, cut)}`);
  return lines.join('\n');
}

/** One action as text (`$ ls` for a terminal command, `str_replace /a/b` for the editor, …). */
export function renderAction(
  action: Action | Record<string, unknown>,
  cut: Cut = (t) => truncate(t, 2000),
): string {
  if (!isKnownAction(action)) return `${String(action.kind)} ${cut(json(withoutKind(action)))}`;
  switch (action.kind) {
    case 'TerminalAction':
      return `$ ${cut(action.command)}${action.is_input ? ' (input)' : ''}`;
    case 'FinishAction':
      return `finish: ${cut(action.message)}`;
    case 'ThinkAction':
      return `think: ${cut(action.thought)}`;
    case 'FileEditorAction':
    case 'PlanningFileEditorAction':
      return `${action.command} ${action.path}`;
    case 'MCPToolAction':
      return `mcp ${cut(json(action.data))}`;
    default:
      return `${action.kind} ${cut(json(withoutKind(action)))}`;
  }
}

/** One observation as text: its `content` text, with the error flag and exit code where present. */
export function renderObservation(
  observation: Observation | Record<string, unknown>,
  cut: Cut = (t) => truncate(t, 2000),
): string {
  if (!isKnownObservation(observation))
    return `${String(observation.kind)} ${cut(json(withoutKind(observation)))}`;
  const flags: string[] = [];
  if (observation.is_error) flags.push('error');
  if (
    observation.kind === 'TerminalObservation' &&
    observation.exit_code !== undefined &&
    observation.exit_code !== null
  )
    flags.push(`exit ${observation.exit_code}`);
  const text = contentText(observation.content);
  return `${observation.kind}${flags.length ? ` (${flags.join(', ')})` : ''}${text ? `: ${cut(text)}` : ''}`;
}

function renderUnknown(event: Event, cut: Cut): string {
  const info = getUnknownInfo(event);
  const why = info?.reason === 'invalid' ? 'invalid' : 'unknown kind';
  const fields = withoutKind(event as Record<string, unknown>);
  delete fields.id;
  delete fields.timestamp;
  delete fields.source;
  return `(${why}) ${cut(json(fields))}`;
}

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const item of content) {
    if (!isRecord(item)) continue;
    if (typeof item.text === 'string') parts.push(item.text);
    else if (Array.isArray(item.image_urls)) parts.push(`[${item.image_urls.length} image(s)]`);
  }
  return parts.join('\n');
}

function withoutKind(value: Record<string, unknown>): Record<string, unknown> {
  const { kind: _kind, ...rest } = value;
  return rest;
}

/** Redacted compact JSON (never throws). */
function json(value: unknown): string {
  try {
    return JSON.stringify(redactEvent(value)) ?? String(value);
  } catch {
    return String(value);
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

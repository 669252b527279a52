type Json = Record<string, unknown>;

/**
 * A ConversationInfo as the real server answers it (1.31.1 and later): `agent.agent_context.skills` is
 * `[]` unless the request asks `include_skills=true` (FastAPI's boolean: `true`, `1`, `yes`, `on`). The
 * stored conversation keeps them.
 */
export function withSkillsAsAsked<T>(info: T, request: Request): T {
  const asked = new URL(request.url).searchParams.get('include_skills')?.toLowerCase() ?? '';
  if (['true', '1', 'yes', 'on'].includes(asked)) return info;
  const agent = (info as Json | null)?.agent as Json | undefined;
  const context = agent?.agent_context as Json | undefined;
  if (!Array.isArray(context?.skills) || context.skills.length === 0) return info;
  return { ...info, agent: { ...agent, agent_context: { ...context, skills: [] } } };
}

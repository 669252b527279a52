import type { RequestOptions } from '../core/options.js';
import { describe, optionsObject } from '../core/validate.js';
import { invalid } from './invalid.js';

/** A call's options plus `includeSkills`, on every route that answers a `ConversationInfo`. */
export interface ConversationReadOptions extends RequestOptions {
  /**
   * Keep `agent.agent_context.skills` in the answer (`include_skills=true`, 1.31.1 and later). The server
   * leaves them out by default (they are about 260 KB for a stock agent); its stored state keeps them.
   */
  includeSkills?: boolean | undefined;
}

/** The call's own options and the query parameter `includeSkills` asks for (none when it is not true). */
export function includeSkillsQuery(options: ConversationReadOptions | undefined): {
  options: RequestOptions;
  query: { include_skills?: true };
} {
  const { includeSkills, ...rest } = optionsObject(options);
  if (includeSkills !== undefined && typeof includeSkills !== 'boolean') {
    throw invalid('options.includeSkills', `must be a boolean, got ${describe(includeSkills)}`);
  }
  // Sent only when true: a server before 1.31.1 ignores the parameter and answers the skills anyway.
  return { options: rest, query: includeSkills ? { include_skills: true } : {} };
}

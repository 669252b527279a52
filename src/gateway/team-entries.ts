import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import type { GatewayApiKey } from './api-key.js';
import { type GatewayConfigNote, type NoteSink, pushNote } from './config-note.js';
import type { GatewayKind } from './kinds.js';
import { explainGatewayModelEntry, type GatewayModelEntry } from './model-entry.js';

export interface PerTeamEntriesInput {
  modelName: string;
  upstreamModel: string;
  gatewayKind: GatewayKind;
  provider?: string;
  apiBase: string;
  allowPlainHttp?: boolean;
  /** One key per team (best as `{ env: 'TEAM_ALPHA_KEY' }`). */
  teams: { team: string; apiKey: GatewayApiKey }[];
  /** Entry name for a team. Default `<modelName>-team-<team>`. */
  nameFor?: (modelName: string, team: string) => string;
}

const TEAM = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Recipe 1 (per-team keys): one entry per team key, so the external gateway sees the team's bearer key;
 * no header forwarding is needed. It does not scale to many users (reported as a note).
 */
export function perTeamModelEntries(
  input: PerTeamEntriesInput,
  options: { onNote?: NoteSink } = {},
): GatewayModelEntry[] {
  if (!Array.isArray(input?.teams) || input.teams.length === 0) {
    throw new RequestValidationError('must list at least one team', 'teams');
  }
  const nameFor = input.nameFor ?? ((model: string, team: string) => `${model}-team-${team}`);
  const issues: ValidationIssue[] = [];
  const notes: GatewayConfigNote[] = [
    {
      level: 'info',
      code: 'recipe-1-scaling',
      message: 'per-team keys attribute spend per team; one entry per key does not scale to many users',
    },
  ];
  const entries: GatewayModelEntry[] = [];
  input.teams.forEach(({ team, apiKey }, index) => {
    if (typeof team !== 'string' || !TEAM.test(team)) {
      issues.push({ path: ['teams', index, 'team'], message: 'must be letters, digits, ".", "_" or "-"' });
      return;
    }
    try {
      const result = explainGatewayModelEntry({
        ...input,
        modelName: nameFor(input.modelName, team),
        apiKey,
      });
      entries.push(result.entry);
      for (const note of result.notes) pushNote(notes, note);
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      for (const issue of error.issues) {
        const path = issue.path[0] === 'apiKey' ? ['teams', index, 'apiKey'] : issue.path;
        if (!issues.some((i) => i.path.join('.') === path.join('.'))) issues.push({ ...issue, path });
      }
    }
  });
  if (issues.length > 0) throw new RequestValidationError(issues);
  for (const note of notes) options.onNote?.(note);
  return entries;
}

/** What a delete of any client resolves to: what was deleted, and the server's own words when it sent some. */
export interface DeleteResult {
  /** The id, name or path the call deleted. */
  id: string;
  /**
   * `false` only where a server answers, without an error, that there was nothing to delete (the agent
   * server's workspaces). Everywhere else an unknown target is a `NotFoundError`.
   */
  deleted: boolean;
  /** The server's confirmation, or `Deleted <id>` when it sent none. */
  message: string;
}

export function deleteResult(id: string, message?: string | null, deleted = true): DeleteResult {
  return { id, deleted, message: message || (deleted ? `Deleted ${id}` : `Nothing to delete at ${id}`) };
}

import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { ApiContext } from './api-context.js';
import { op } from './operation.js';

export const AUTH_OPERATIONS = {
  createWorkspaceSession: op('POST', '/api/auth/workspace-session', '1.31.1'),
  deleteWorkspaceSession: op('DELETE', '/api/auth/workspace-session', '1.31.1'),
} as const;

/**
 * The workspace-session cookie (204, `Set-Cookie`) that lets a browser open the served workspace files and
 * VS Code without the session key in URLs. Browsers keep the cookie when the client's `fetch` sends
 * credentials; Node has no cookie jar, so there it only checks the key.
 */
export class AuthApi {
  constructor(readonly api: ApiContext) {}

  createWorkspaceSession(options: RequestOptions = {}): APIPromise<void> {
    return this.api.call(AUTH_OPERATIONS.createWorkspaceSession, { responseType: 'none', options });
  }

  deleteWorkspaceSession(options: RequestOptions = {}): APIPromise<void> {
    return this.api.call(AUTH_OPERATIONS.deleteWorkspaceSession, { responseType: 'none', options });
  }
}

import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import { requireNonEmptyString } from '../../core/validate.js';
import type { ApiContext } from './api-context.js';
import { shape } from './decode.js';
import { op } from './operation.js';
import { requireObject } from './paths.js';
import type { JsonObject } from './types.js';

export const MCP_OPERATIONS = {
  test: op('POST', '/api/mcp/test', '1.31.1'),
  startOAuth: op('POST', '/api/mcp/oauth/start', '1.31.2'),
  oauthStatus: op('GET', '/api/mcp/oauth/status/{job_id}', '1.31.2'),
  submitOAuthCallback: op('POST', '/api/mcp/oauth/callback/{job_id}', '1.31.2'),
} as const;

/** OpenAPI `MCPTestRequest`: a server spec (stdio or remote) to try. */
export interface McpTestRequest {
  server: JsonObject;
  name?: string;
  /** Seconds, up to 120. */
  timeout?: number;
  tool_call?: JsonObject | null;
}

/** Testing MCP servers and their OAuth login. The servers themselves are saved with `settings.mcp`. */
export class McpApi {
  constructor(readonly api: ApiContext) {}

  /** Connects to the server and lists its tools (`MCPTestSuccess`) or says why not (`MCPTestFailure`). */
  test(request: McpTestRequest, options: RequestOptions = {}): APIPromise<JsonObject> {
    requireObject(request, 'request');
    requireObject(request.server, 'request.server');
    return this.api.call(MCP_OPERATIONS.test, { json: request, decode: shape(), options });
  }

  /** Starts an OAuth login for a remote server; poll `oauthStatus(job_id)`. */
  startOAuth(request: McpTestRequest, options: RequestOptions = {}): APIPromise<JsonObject> {
    requireObject(request, 'request');
    requireObject(request.server, 'request.server');
    return this.api.call(MCP_OPERATIONS.startOAuth, { json: request, decode: shape(), options });
  }

  oauthStatus(jobId: string, options: RequestOptions = {}): APIPromise<JsonObject> {
    requireNonEmptyString(jobId, 'jobId');
    return this.api.call(MCP_OPERATIONS.oauthStatus, { params: { job_id: jobId }, decode: shape(), options });
  }

  /** Hands the provider's redirect (OpenAPI `MCPOAuthCallbackRequest`) to the waiting job. */
  submitOAuthCallback(
    jobId: string,
    request: JsonObject,
    options: RequestOptions = {},
  ): APIPromise<JsonObject> {
    requireNonEmptyString(jobId, 'jobId');
    requireObject(request, 'request');
    return this.api.call(MCP_OPERATIONS.submitOAuthCallback, {
      params: { job_id: jobId },
      json: request,
      decode: shape(),
      options,
    });
  }
}

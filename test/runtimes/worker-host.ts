// The smoke suite's host in workerd (miniflare): the configuration as the body of a POST, the checks as the
// JSON answer.
import { type SmokeConfig, smoke } from './smoke.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const config = (await request.json()) as SmokeConfig;
    return Response.json(await smoke(config));
  },
};

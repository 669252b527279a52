// `npm run demo` (after the build): the same demo as `agent-platform demo`. It starts a simulated platform on
// loopback and walks through the SDK against it, as a user would. The demo's code is src/cli/demo.ts.
import { runDemo } from '../dist/cli/demo.js';

process.exitCode = await runDemo();

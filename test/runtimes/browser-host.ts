// The smoke suite's host in a browser page: the runner calls `runSmoke(config)` with page.evaluate.
import { smoke } from './smoke.js';

(globalThis as { runSmoke?: typeof smoke }).runSmoke = smoke;
